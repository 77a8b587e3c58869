package io.baton.engine;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.TestCapabilities;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.flow.Flow;
import io.baton.flow.RepeatPolicy;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import io.baton.journal.StepCompleted;
import io.baton.journal.StepRepeated;
import io.baton.testkit.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code repeat} on simulated time: iterations, the condition, the bound, durable waits. */
class RepeatTest {
  private static final Instant T0 = SettableClock.EPOCH;
  private final TestCluster cluster = new TestCluster();

  @AfterEach
  void close() {
    cluster.close();
  }

  /** Echoes its iteration and what the previous iteration returned. */
  private static Flow poller(String until, int max, Duration every) {
    return TestFlows.named("poller")
        .step("prepare", "echo", "{\"target\": 3}")
        .step(
            "poll",
            "echo",
            "{\"n\": \"{{ run.iteration }}\", \"previous\": \"{{ steps.poll.output.n }}\","
                + " \"target\": \"{{ steps.prepare.output.target }}\"}")
        .repeat(until, max, every)
        .step("after", "echo", "{\"polled\": \"{{ steps.poll.output.n }}\"}")
        .output("{{ steps.after.output }}")
        .build();
  }

  private UUID submit(Flow flow) {
    cluster.start("node-a");
    cluster.apply(flow);
    return cluster
        .await(
            cluster.node("node-a").orchestrator().submitAsync(flow.name(), json("{}"), null, null))
        .run()
        .runId();
  }

  private Orchestrator orchestrator(String node) {
    return cluster.node(node).orchestrator();
  }

  private List<TestCapabilities.Call> pollCalls() {
    return cluster.capabilities.calls.stream().filter(c -> c.step().equals("poll")).toList();
  }

  @Test
  void a_step_repeats_until_its_condition_holds_and_waits_every_between_iterations() {
    UUID runId = submit(poller("{{ steps.poll.output.n }} == 3", 10, Duration.ofSeconds(10)));
    cluster.runUntil(
        () -> orchestrator("node-a").find(runId).status().isTerminal(), Duration.ofHours(1));

    assertThat(orchestrator("node-a").find(runId).status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(orchestrator("node-a").get(runId).run().output()).isEqualTo(json("{\"polled\": 3}"));
    List<JournalEntry> journal = orchestrator("node-a").journal(runId);
    List<StepRepeated> repeats =
        journal.stream()
            .map(JournalEntry::event)
            .filter(StepRepeated.class::isInstance)
            .map(StepRepeated.class::cast)
            .toList();
    assertThat(repeats).extracting(StepRepeated::iteration).containsExactly(1, 2);
    assertThat(repeats).extracting(r -> r.output().get("n").asInt()).containsExactly(1, 2);
    List<TestCapabilities.Call> calls = pollCalls();
    assertThat(calls).hasSize(3);
    assertThat(calls).extracting(c -> c.params().get("n").asInt()).containsExactly(1, 2, 3);
    assertThat(calls)
        .extracting(
            c -> c.params().get("previous").isNull() ? -1 : c.params().get("previous").asInt())
        .containsExactly(-1, 1, 2);
    String key = calls.get(0).idempotencyKey();
    assertThat(calls)
        .extracting(TestCapabilities.Call::idempotencyKey)
        .containsExactly(key, key + "#2", key + "#3");
    // each iteration waited `every` after the previous one ended (steps take no time here)
    assertThat(repeats.get(0).nextAt()).isEqualTo(repeats.get(0).startedAt().plusSeconds(10));
    Instant lastStart =
        journal.stream()
            .map(JournalEntry::event)
            .filter(e -> e instanceof StepCompleted c && c.step().equals("poll"))
            .map(e -> ((StepCompleted) e).startedAt())
            .findFirst()
            .orElseThrow();
    assertThat(lastStart).isAfterOrEqualTo(T0.plusSeconds(20));
  }

  @Test
  void a_repeat_that_reaches_max_fails_the_step_for_good_naming_the_limit() {
    UUID runId = submit(poller("{{ steps.poll.output.n }} == 99", 4, Duration.ZERO));
    cluster.runUntil(
        () -> orchestrator("node-a").find(runId).status().isTerminal(), Duration.ofHours(1));

    assertThat(orchestrator("node-a").find(runId).status()).isEqualTo(RunStatus.FAILED);
    StepView poll =
        orchestrator("node-a").get(runId).steps().stream()
            .filter(s -> s.name().equals("poll"))
            .findFirst()
            .orElseThrow();
    assertThat(poll.error().code()).isEqualTo(RepeatPolicy.EXHAUSTED);
    assertThat(poll.error().message()).contains("4 iterations (repeat.max)");
    assertThat(pollCalls()).hasSize(4);
    assertThat(cluster.capabilities.callsOf("after")).isZero();
  }

  @Test
  void the_wait_between_iterations_is_durable_and_another_node_carries_the_loop_on() {
    UUID runId = submit(poller("{{ steps.poll.output.n }} == 3", 10, Duration.ofHours(1)));
    cluster.runUntil(
        () ->
            orchestrator("node-a").find(runId).status() == RunStatus.WAITING
                && pollCalls().size() == 1,
        Duration.ofMinutes(1));
    cluster.node("node-a").halt();
    cluster.start("node-b");

    cluster.runUntil(
        () -> orchestrator("node-b").find(runId).status().isTerminal(), Duration.ofHours(3));

    assertThat(orchestrator("node-b").find(runId).status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(pollCalls()).extracting(c -> c.params().get("n").asInt()).containsExactly(1, 2, 3);
    assertThat(cluster.scheduler.clock().instant()).isAfterOrEqualTo(T0.plus(Duration.ofHours(2)));
  }
}

package io.baton.engine;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.capability.ErrorCodes;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.flow.Backoff;
import io.baton.flow.Flow;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import io.baton.journal.StepCompleted;
import io.baton.journal.StepFailed;
import io.baton.store.RunRecord;
import io.baton.testkit.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Retry waits asserted exactly on the settable clock, per back-off mode and retryOn rule. */
class RetryTimingTest {
  private static final Instant T0 = SettableClock.EPOCH;
  private final TestCluster cluster = new TestCluster();

  @AfterEach
  void close() {
    cluster.close();
  }

  private UUID run(Flow flow) {
    cluster.start("node-a");
    cluster.apply(flow);
    Orchestrator orchestrator = cluster.node("node-a").orchestrator();
    UUID runId =
        cluster.await(orchestrator.submitAsync(flow.name(), json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> orchestrator.find(runId).status().isTerminal(), Duration.ofHours(1));
    return runId;
  }

  private List<StepFailed> failures(UUID runId) {
    return cluster.node("node-a").orchestrator().journal(runId).stream()
        .map(JournalEntry::event)
        .filter(StepFailed.class::isInstance)
        .map(StepFailed.class::cast)
        .toList();
  }

  private StepCompleted completion(UUID runId) {
    return cluster.node("node-a").orchestrator().journal(runId).stream()
        .map(JournalEntry::event)
        .filter(StepCompleted.class::isInstance)
        .map(StepCompleted.class::cast)
        .findFirst()
        .orElseThrow();
  }

  private Flow flaky(
      String name,
      int succeedOn,
      Backoff backoff,
      Duration maxDelay,
      List<String> retryOn,
      String code,
      boolean retryable) {
    return TestFlows.named(name)
        .step(
            "call",
            "flaky",
            "{\"succeedOn\": "
                + succeedOn
                + ", \"code\": \""
                + code
                + "\", \"retryable\": "
                + retryable
                + "}")
        .retry(5, Duration.ofMillis(100), backoff, maxDelay, false, retryOn)
        .build();
  }

  @Test
  void fixed_backoff_waits_the_same_delay_after_each_attempt() {
    UUID runId = run(flaky("fixed", 4, Backoff.FIXED, null, List.of(), "boom", true));
    assertThat(failures(runId))
        .extracting(StepFailed::retryAt)
        .containsExactly(T0.plusMillis(100), T0.plusMillis(200), T0.plusMillis(300));
    assertThat(completion(runId).startedAt()).isEqualTo(T0.plusMillis(300));
    assertThat(completion(runId).attempt()).isEqualTo(4);
  }

  @Test
  void linear_backoff_multiplies_the_delay_by_the_attempt() {
    UUID runId = run(flaky("linear", 4, Backoff.LINEAR, null, List.of(), "boom", true));
    assertThat(failures(runId))
        .extracting(StepFailed::retryAt)
        .containsExactly(T0.plusMillis(100), T0.plusMillis(100 + 200), T0.plusMillis(300 + 300));
  }

  @Test
  void exponential_backoff_doubles_and_is_capped_by_max_delay() {
    UUID runId =
        run(flaky("exp", 5, Backoff.EXPONENTIAL, Duration.ofMillis(350), List.of(), "boom", true));
    assertThat(failures(runId))
        .extracting(StepFailed::retryAt)
        .containsExactly(
            T0.plusMillis(100),
            T0.plusMillis(100 + 200),
            T0.plusMillis(300 + 350),
            T0.plusMillis(650 + 350));
    assertThat(completion(runId).startedAt()).isEqualTo(T0.plusMillis(1000));
  }

  @Test
  void attempts_stop_at_max_attempts_and_the_run_fails_with_the_last_error() {
    UUID runId = run(flaky("exhausted", 0, Backoff.FIXED, null, List.of(), "http_5xx", true));
    List<StepFailed> failures = failures(runId);
    assertThat(failures).hasSize(5);
    assertThat(failures.get(4).retryAt()).isNull();
    RunRecord run = cluster.node("node-a").orchestrator().find(runId);
    assertThat(run.status()).isEqualTo(RunStatus.FAILED);
    assertThat(run.error().code()).isEqualTo("http_5xx");
    assertThat(run.recoverable()).isTrue();
  }

  @Test
  void a_non_retryable_error_outside_retry_on_is_not_retried() {
    UUID runId =
        run(
            flaky(
                "filtered",
                3,
                Backoff.FIXED,
                null,
                List.of(ErrorCodes.TIMEOUT),
                "http_4xx",
                false));
    assertThat(failures(runId)).singleElement().satisfies(f -> assertThat(f.retryAt()).isNull());
  }

  @Test
  void a_non_retryable_error_listed_in_retry_on_is_retried() {
    UUID runId =
        run(flaky("listed", 3, Backoff.FIXED, null, List.of("http_4xx"), "http_4xx", false));
    assertThat(failures(runId)).hasSize(2);
    assertThat(completion(runId).attempt()).isEqualTo(3);
  }

  @Test
  void a_retryable_error_qualifies_even_when_retry_on_does_not_list_it() {
    UUID runId =
        run(flaky("retryable", 2, Backoff.FIXED, null, List.of("timeout"), "http_5xx", true));
    assertThat(failures(runId)).hasSize(1);
  }

  @Test
  void without_retry_on_every_error_is_retried() {
    UUID runId = run(flaky("any", 2, Backoff.FIXED, null, List.of(), "http_4xx", false));
    assertThat(failures(runId)).hasSize(1);
    assertThat(completion(runId).attempt()).isEqualTo(2);
  }

  @Test
  void a_step_without_a_retry_block_is_attempted_once() {
    Flow flow = TestFlows.named("once").step("call", "flaky", "{\"succeedOn\": 2}").build();
    UUID runId = run(flow);
    assertThat(failures(runId)).singleElement().satisfies(f -> assertThat(f.retryAt()).isNull());
  }

  @Test
  void a_timeout_fails_the_attempt_as_retryable_at_exactly_the_deadline() {
    Flow flow =
        TestFlows.named("slow")
            .step("hang", "gate", "{}")
            .timeout(Duration.ofSeconds(5))
            .retry(2, Duration.ofSeconds(1), Backoff.FIXED, null, false, List.of())
            .build();
    cluster.start("node-a");
    cluster.apply(flow);
    Orchestrator orchestrator = cluster.node("node-a").orchestrator();
    UUID runId =
        cluster.await(orchestrator.submitAsync("slow", json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> orchestrator.find(runId).status().isTerminal(), Duration.ofMinutes(1));

    List<StepFailed> failures = failures(runId);
    assertThat(failures).extracting(StepFailed::errorCode).containsExactly("timeout", "timeout");
    assertThat(failures.get(0).retryAt()).isEqualTo(T0.plusSeconds(6));
    assertThat(failures.get(1).startedAt()).isEqualTo(T0.plusSeconds(6));
    assertThat(cluster.capabilities.callsOf("hang")).isEqualTo(2);
  }
}

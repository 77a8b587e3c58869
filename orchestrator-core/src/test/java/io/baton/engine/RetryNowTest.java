package io.baton.engine;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.flow.Backoff;
import io.baton.flow.Flow;
import io.baton.journal.CommandApplied;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import io.baton.journal.RunWoken;
import io.baton.journal.StepCompleted;
import io.baton.journal.StepFailed;
import io.baton.journal.WaitReason;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.RunRecord;
import io.baton.store.SignalType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Retry-now on simulated time: a step failing with a one-hour back-off runs its next attempt at
 * once, with the same attempt numbering and budget; who asked and why is journaled; the request
 * survives the loss of the tree's owner.
 */
class RetryNowTest {
  private static final Duration BACK_OFF = Duration.ofHours(1);
  private final TestCluster cluster =
      new TestCluster()
          .recovery(RecoveryConfig.defaults().withCheckInterval(Duration.ofSeconds(1)));

  @AfterEach
  void close() {
    cluster.close();
  }

  private static Flow flaky(String name, int succeedOn, int maxAttempts) {
    return TestFlows.named(name)
        .step("call", "flaky", "{\"succeedOn\": " + succeedOn + "}")
        .retry(maxAttempts, BACK_OFF, Backoff.FIXED, null, false, List.of())
        .build();
  }

  private UUID submit(Orchestrator orchestrator, Flow flow) {
    cluster.apply(flow);
    return cluster
        .await(orchestrator.submitAsync(flow.name(), json("{}"), null, null))
        .run()
        .runId();
  }

  private List<StepFailed> failures(Orchestrator orchestrator, UUID runId) {
    return events(orchestrator, runId, StepFailed.class);
  }

  private static <T> List<T> events(Orchestrator orchestrator, UUID runId, Class<T> type) {
    return orchestrator.journal(runId).stream()
        .map(JournalEntry::event)
        .filter(type::isInstance)
        .map(type::cast)
        .toList();
  }

  private static CommandOrigin ann() {
    return new CommandOrigin("ann", "key", "the upstream is back");
  }

  @Test
  void retry_now_starts_the_next_attempt_at_once_and_journals_who_and_why() {
    cluster.start("node-a");
    Orchestrator orchestrator = cluster.node("node-a").orchestrator();
    UUID runId = submit(orchestrator, flaky("retry-now", 2, 3));
    cluster.runUntil(() -> failures(orchestrator, runId).size() == 1);
    Instant failedAt = cluster.scheduler.now();
    cluster.runUntil(() -> orchestrator.find(runId).status() == RunStatus.WAITING);

    RunRecord answered = cluster.await(orchestrator.retryNowAsync(runId, "call", ann()));
    assertThat(answered.status()).isIn(RunStatus.RUNNING, RunStatus.SUCCEEDED);
    cluster.runUntil(
        () -> orchestrator.find(runId).status() == RunStatus.SUCCEEDED, Duration.ofMinutes(1));

    StepCompleted done = events(orchestrator, runId, StepCompleted.class).get(0);
    assertThat(done.attempt()).isEqualTo(2);
    assertThat(done.startedAt()).isBefore(failedAt.plus(Duration.ofMinutes(1)));
    assertThat(events(orchestrator, runId, RunWoken.class))
        .singleElement()
        .satisfies(
            woken -> {
              assertThat(woken.reason()).isEqualTo(WaitReason.RETRY);
              assertThat(woken.outcome()).isEqualTo("retry-now");
            });
    assertThat(events(orchestrator, runId, CommandApplied.class))
        .contains(new CommandApplied("retry-now", "ann", "key", "the upstream is back"));
    assertThat(orchestrator.get(runId).commands())
        .anySatisfy(
            command -> {
              assertThat(command.command()).isEqualTo("retry-now");
              assertThat(command.by()).isEqualTo("ann");
              assertThat(command.reason()).isEqualTo("the upstream is back");
            });
  }

  @Test
  void retry_now_keeps_the_attempt_budget_so_the_last_attempt_fails_for_good() {
    cluster.start("node-a");
    Orchestrator orchestrator = cluster.node("node-a").orchestrator();
    UUID runId = submit(orchestrator, flaky("budget", 0, 2));
    cluster.runUntil(() -> failures(orchestrator, runId).size() == 1);

    cluster.await(orchestrator.retryNowAsync(runId, "call", ann()));
    cluster.runUntil(
        () -> orchestrator.find(runId).status() == RunStatus.FAILED, Duration.ofMinutes(1));

    assertThat(failures(orchestrator, runId))
        .extracting(StepFailed::attempt, StepFailed::willRetry)
        .containsExactly(Tuple.tuple(1, true), Tuple.tuple(2, false));
    CompletableFuture<RunRecord> again = orchestrator.retryNowAsync(runId, "call", ann());
    cluster.runUntil(again::isDone);
    assertThatThrownBy(again::join)
        .hasCauseInstanceOf(RunConflictException.class)
        .hasMessageContaining("is FAILED");
  }

  @Test
  void retry_now_of_a_step_not_in_back_off_is_a_conflict_and_of_an_unknown_step_not_found() {
    cluster.start("node-a");
    Orchestrator orchestrator = cluster.node("node-a").orchestrator();
    UUID runId = submit(orchestrator, TestFlows.named("busy").step("hold", "gate", "{}").build());
    cluster.runUntil(() -> cluster.capabilities.waiting("hold"));

    CompletableFuture<RunRecord> running = orchestrator.retryNowAsync(runId, "hold", ann());
    cluster.runUntil(running::isDone);
    assertThatThrownBy(running::join)
        .hasCauseInstanceOf(RunConflictException.class)
        .hasMessageContaining("only a step waiting to retry a failed attempt");
    CompletableFuture<RunRecord> unknown = orchestrator.retryNowAsync(runId, "nope", ann());
    cluster.runUntil(unknown::isDone);
    assertThatThrownBy(unknown::join)
        .hasCauseInstanceOf(StepNotFoundException.class)
        .hasMessageContaining("no step 'nope'");
  }

  @Test
  void a_retry_now_recorded_before_the_owner_dies_is_applied_by_the_node_that_claims_the_run() {
    cluster.engineConfig(config -> config.withParkAfter(Duration.ofDays(1)));
    cluster.start("node-a");
    cluster.start("node-b");
    Orchestrator a = cluster.node("node-a").orchestrator();
    UUID runId = submit(a, flaky("failover", 2, 3));
    cluster.runUntil(() -> failures(a, runId).size() == 1);
    Instant failedAt = cluster.scheduler.now();
    // Recorded in the inbox as the API does, then the owner dies before it reads its inbox.
    cluster
        .node("node-a")
        .stores()
        .metadata()
        .addSignal(
            runId,
            SignalType.RETRY_NOW,
            "call",
            json("{\"by\": \"ann\", \"comment\": \"after failover\"}"),
            failedAt);
    cluster.node("node-a").halt();

    Orchestrator b = cluster.node("node-b").orchestrator();
    cluster.runUntil(() -> b.find(runId).status() == RunStatus.SUCCEEDED, Duration.ofMinutes(10));
    assertThat(events(b, runId, StepCompleted.class).get(0).startedAt())
        .isBefore(failedAt.plus(Duration.ofMinutes(10)));
    assertThat(events(b, runId, CommandApplied.class))
        .contains(new CommandApplied("retry-now", "ann", "", "after failover"));
  }
}

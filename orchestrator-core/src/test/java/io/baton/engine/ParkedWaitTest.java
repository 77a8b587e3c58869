package io.baton.engine;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.flow.Backoff;
import io.baton.flow.Flow;
import io.baton.journal.RunStatus;
import io.baton.journal.RunWait;
import io.baton.store.RunRecord;
import io.baton.store.SignalType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A parked run's row says what it waits for (the derived states of the operator's window), as the
 * engine records it in the status change that parks the run, and says nothing once it runs again.
 */
class ParkedWaitTest {
  private final TestCluster cluster = new TestCluster();
  private Orchestrator orchestrator;

  @BeforeEach
  void start() {
    cluster.start("node-a");
    orchestrator = cluster.node("node-a").orchestrator();
  }

  @AfterEach
  void close() {
    cluster.close();
  }

  private UUID submit(Flow flow) {
    cluster.apply(flow);
    return cluster
        .await(orchestrator.submitAsync(flow.name(), json("{\"id\": 7}"), null, null))
        .run()
        .runId();
  }

  private RunRecord row(UUID runId) {
    return orchestrator.find(runId);
  }

  private boolean parked(UUID runId) {
    return row(runId).status() == RunStatus.WAITING && !cluster.node("node-a").engine().owns(runId);
  }

  @Test
  void a_run_parked_for_an_approval_records_the_approval_and_forgets_it_once_approved() {
    UUID runId =
        submit(
            TestFlows.named("approve")
                .step("ask", "wait-approval", "{\"prompt\": \"ship?\"}")
                .step("ship", "echo", "{}")
                .build());
    cluster.runUntil(() -> parked(runId));
    assertThat(row(runId).waiting()).isEqualTo(RunWait.approval("ask"));

    cluster.await(orchestrator.answerAsync(runId, SignalType.APPROVE, null, "ann", null));
    cluster.runUntil(() -> row(runId).status() == RunStatus.SUCCEEDED);
    assertThat(row(runId).waiting()).isNull();
  }

  @Test
  void a_run_parked_for_a_timer_records_when_it_falls_due() {
    Instant start = cluster.scheduler.now();
    UUID runId =
        submit(
            TestFlows.named("timer")
                .step("nap", "wait-timer", "{\"duration\": \"1h\"}")
                .step("after", "echo", "{}")
                .build());
    cluster.runUntil(() -> parked(runId));
    assertThat(row(runId).waiting())
        .isEqualTo(RunWait.timer("nap", start.plus(Duration.ofHours(1))));

    cluster.runUntil(() -> row(runId).status() == RunStatus.SUCCEEDED, Duration.ofHours(2));
    assertThat(row(runId).waiting()).isNull();
  }

  @Test
  void a_run_parked_in_a_back_off_records_attempt_n_of_m_and_the_next_try() {
    UUID runId =
        submit(
            TestFlows.named("flaky")
                .step("call", "flaky", "{\"succeedOn\": 3}")
                .retry(4, Duration.ofMinutes(1), Backoff.FIXED, null, false, List.of())
                .build());
    cluster.runUntil(() -> parked(runId));
    RunWait first = row(runId).waiting();
    assertThat(first.kind()).isEqualTo(RunWait.Kind.RETRY);
    assertThat(first.step()).isEqualTo("call");
    assertThat(first.attempt()).as("the attempt due next").isEqualTo(2);
    assertThat(first.maxAttempts()).isEqualTo(4);
    assertThat(first.at()).isEqualTo(orchestrator.get(runId).steps().get(0).retryAt());

    cluster.runUntil(
        () -> parked(runId) && row(runId).waiting().attempt() == 3, Duration.ofMinutes(2));
    assertThat(row(runId).waiting().at()).isEqualTo(first.at().plus(Duration.ofMinutes(1)));

    cluster.runUntil(() -> row(runId).status() == RunStatus.SUCCEEDED, Duration.ofMinutes(3));
    assertThat(row(runId).waiting()).isNull();
  }

  @Test
  void a_parent_parked_on_its_subflow_waits_for_the_child_and_the_child_for_its_approval() {
    cluster.apply(
        TestFlows.named("asks").step("ok", "wait-approval", "{\"prompt\": \"go?\"}").build());
    UUID runId =
        submit(TestFlows.named("outer").step("call", "call-flow", "{\"flow\": \"asks\"}").build());
    cluster.runUntil(() -> parked(runId));
    UUID child = orchestrator.get(runId).children().get(0);

    assertThat(row(runId).waiting()).isEqualTo(RunWait.child("call"));
    assertThat(row(child).status()).isEqualTo(RunStatus.WAITING);
    assertThat(row(child).waiting()).isEqualTo(RunWait.approval("ok"));

    cluster.await(orchestrator.answerAsync(child, SignalType.APPROVE, null, "ann", null));
    cluster.runUntil(() -> row(runId).status() == RunStatus.SUCCEEDED);
    assertThat(row(runId).waiting()).isNull();
    assertThat(row(child).waiting()).isNull();
  }

  @Test
  void of_an_approval_and_a_timer_at_once_the_approval_is_recorded() {
    UUID runId =
        submit(
            TestFlows.named("both")
                .step("nap", "wait-timer", "{\"duration\": \"1h\"}")
                .step("ask", "wait-approval", "{\"prompt\": \"?\"}", List.of(), null, null)
                .build());
    cluster.runUntil(() -> parked(runId));
    assertThat(row(runId).waiting()).isEqualTo(RunWait.approval("ask"));
    assertThat(row(runId).wakeAt()).as("the timer still wakes it").isNotNull();
  }

  @Test
  void a_repeating_step_parked_between_iterations_waits_for_a_timer_not_a_retry() {
    UUID runId =
        submit(
            TestFlows.named("poller")
                .step("poll", "echo", "{\"n\": \"{{ run.iteration }}\"}")
                .repeat("{{ steps.poll.output.n }} == 3", 10, Duration.ofMinutes(10))
                .build());
    cluster.runUntil(() -> parked(runId));
    RunWait wait = row(runId).waiting();
    assertThat(wait.kind()).isEqualTo(RunWait.Kind.TIMER);
    assertThat(wait.step()).isEqualTo("poll");
    assertThat(wait.at()).isEqualTo(row(runId).wakeAt());
  }
}

package io.baton.engine;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.engine.testing.TestCapabilities.Call;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.flow.Flow;
import io.baton.journal.ClaimReason;
import io.baton.journal.RunStatus;
import io.baton.journal.replay.ClaimRecord;
import io.baton.store.RunRecord;
import io.baton.store.SignalType;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Timers, approvals and subflows parked and woken; cancel at every status. */
class WaitsAndSignalsTest {
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

  private RunStatus status(UUID runId) {
    return orchestrator.find(runId).status();
  }

  private <T> T await(CompletableFuture<T> future) {
    return cluster.await(future);
  }

  private boolean parked(UUID root) {
    return status(root) == RunStatus.WAITING
        && !cluster.node("node-a").engine().owns(root)
        && cluster.leaseService.revision() > 0
        && cluster.node("node-a").leases().getLease(root).isEmpty();
  }

  @Test
  void a_long_timer_parks_the_run_without_a_lease_and_wakes_it_when_due() {
    UUID runId =
        submit(
            TestFlows.named("timer")
                .step("nap", "wait-timer", "{\"duration\": \"1h\"}")
                .step("after", "echo", "{\"done\": true}")
                .build());
    cluster.runUntil(() -> parked(runId));
    RunRecord waiting = orchestrator.find(runId);
    assertThat(waiting.wakeAt()).isEqualTo(cluster.scheduler.now().plus(Duration.ofHours(1)));

    cluster.runUntil(() -> status(runId) == RunStatus.SUCCEEDED, Duration.ofHours(2));
    assertThat(cluster.scheduler.now()).isAfterOrEqualTo(waiting.wakeAt());
    assertThat(orchestrator.get(runId).steps().get(0).finishedAt())
        .as("the node that parked the run wakes it on time, not at its next safety-net pass")
        .isEqualTo(waiting.wakeAt());
    assertThat(orchestrator.get(runId).ownership())
        .extracting(ClaimRecord::reason)
        .containsExactly(ClaimReason.SUBMIT, ClaimReason.WAKE);
  }

  @Test
  void a_short_timer_stays_in_memory_and_completes_on_time() {
    UUID runId =
        submit(
            TestFlows.named("short")
                .step("nap", "wait-timer", "{\"duration\": \"500ms\"}")
                .build());
    cluster.runUntil(() -> status(runId) == RunStatus.SUCCEEDED, Duration.ofSeconds(5));
    assertThat(orchestrator.get(runId).ownership()).hasSize(1);
    assertThat(orchestrator.get(runId).steps().get(0).finishedAt())
        .isEqualTo(orchestrator.find(runId).createdAt().plusMillis(500));
  }

  @Test
  void an_approval_parks_the_run_and_approving_it_continues_the_run() {
    UUID runId =
        submit(
            TestFlows.named("approve")
                .step("ask", "wait-approval", "{\"prompt\": \"Ship {{ input.id }}?\"}")
                .step("ship", "echo", "{\"approval\": \"{{ steps.ask.output }}\"}")
                .build());
    cluster.runUntil(() -> parked(runId));
    assertThat(orchestrator.get(runId).steps().get(0).waitingFor()).isEqualTo("approval");

    RunRecord answered =
        await(orchestrator.answerAsync(runId, SignalType.APPROVE, null, "ann", "ok"));
    assertThat(answered.status()).isIn(RunStatus.RUNNING, RunStatus.SUCCEEDED);
    cluster.runUntil(() -> status(runId) == RunStatus.SUCCEEDED);
    assertThat(orchestrator.find(runId).output())
        .isEqualTo(
            json("{\"approval\": {\"approved\": true, \"by\": \"ann\", \"comment\": \"ok\"}}"));
  }

  @Test
  void rejecting_fails_the_run_with_code_rejected_and_it_is_not_recoverable() {
    UUID runId =
        submit(
            TestFlows.named("reject")
                .step("ask", "wait-approval", "{\"prompt\": \"?\"}")
                .step("ship", "echo", "{}")
                .build());
    cluster.runUntil(() -> parked(runId));
    await(orchestrator.answerAsync(runId, SignalType.REJECT, "ask", "bob", "no"));
    cluster.runUntil(() -> status(runId) == RunStatus.FAILED);
    RunRecord run = orchestrator.find(runId);
    assertThat(run.error().code()).isEqualTo("rejected");
    assertThat(run.error().message()).contains("bob").contains("no");
    assertThat(run.recoverable()).isFalse();
    assertThat(cluster.capabilities.callsOf("ship")).isZero();
  }

  @Test
  void approving_a_run_that_waits_for_no_approval_is_a_conflict() {
    UUID runId = submit(TestFlows.named("busy").step("hold", "gate", "{}").build());
    cluster.runUntil(() -> cluster.capabilities.waiting("hold"));
    CompletableFuture<RunRecord> answer =
        orchestrator.answerAsync(runId, SignalType.APPROVE, null, "x", null);
    cluster.runUntil(answer::isDone);
    assertThatThrownBy(answer::join)
        .hasCauseInstanceOf(RunConflictException.class)
        .hasMessageContaining("no step waiting for approval");
  }

  @Test
  void a_subflow_runs_in_its_parents_tree_and_its_output_becomes_the_steps_output() {
    cluster.apply(
        TestFlows.named("child").step("inner", "echo", "{\"got\": \"{{ input.n }}\"}").build());
    UUID runId =
        submit(
            TestFlows.named("parent")
                .step(
                    "call",
                    "call-flow",
                    "{\"flow\": \"child\", \"input\": {\"n\": \"{{ input.id }}\"}}")
                .step("after", "echo", "{\"child\": \"{{ steps.call.output }}\"}")
                .build());
    cluster.runUntil(() -> status(runId) == RunStatus.SUCCEEDED);

    RunView view = orchestrator.get(runId);
    assertThat(view.children()).hasSize(1);
    RunRecord child = orchestrator.find(view.children().get(0));
    assertThat(child.rootRunId()).isEqualTo(runId);
    assertThat(child.parentRunId()).isEqualTo(runId);
    assertThat(child.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(orchestrator.find(runId).output()).isEqualTo(json("{\"child\": {\"got\": 7}}"));
  }

  @Test
  void a_subflow_that_waits_for_approval_parks_the_whole_tree() {
    cluster.apply(
        TestFlows.named("asks").step("ok", "wait-approval", "{\"prompt\": \"go?\"}").build());
    UUID runId =
        submit(TestFlows.named("outer").step("call", "call-flow", "{\"flow\": \"asks\"}").build());
    cluster.runUntil(() -> parked(runId));
    UUID child = orchestrator.get(runId).children().get(0);
    assertThat(status(child)).isEqualTo(RunStatus.WAITING);

    await(orchestrator.answerAsync(child, SignalType.APPROVE, null, "ann", null));
    cluster.runUntil(() -> status(runId) == RunStatus.SUCCEEDED);
    assertThat(status(child)).isEqualTo(RunStatus.SUCCEEDED);
  }

  @Test
  void a_subflow_of_an_unknown_flow_fails_the_parent_step() {
    UUID runId =
        submit(
            TestFlows.named("lost").step("call", "call-flow", "{\"flow\": \"nowhere\"}").build());
    cluster.runUntil(() -> status(runId) == RunStatus.FAILED);
    assertThat(orchestrator.find(runId).error().code()).isEqualTo("unknown_flow");
  }

  @Test
  void cancelling_a_running_run_stops_its_step_and_cancels_it() {
    UUID runId =
        submit(
            TestFlows.named("cancel-running")
                .step("hold", "gate", "{}")
                .step("next", "echo", "{}")
                .build());
    cluster.runUntil(() -> cluster.capabilities.waiting("hold"));
    RunRecord cancelled = await(orchestrator.cancelAsync(runId, "ops"));
    assertThat(cancelled.status()).isEqualTo(RunStatus.CANCELLED);
    assertThat(cancelled.statusReason()).contains("ops");
    assertThat(cluster.capabilities.waiting("hold")).isFalse();
    assertThat(cluster.capabilities.callsOf("next")).isZero();
    assertThat(cluster.node("node-a").engine().owns(runId)).isFalse();
  }

  @Test
  void cancelling_a_waiting_run_claims_it_and_cancels_it() {
    UUID runId =
        submit(TestFlows.named("cancel-waiting").step("ask", "wait-approval", "{}").build());
    cluster.runUntil(() -> parked(runId));
    assertThat(await(orchestrator.cancelAsync(runId, "ops")).status())
        .isEqualTo(RunStatus.CANCELLED);
  }

  @Test
  void cancelling_a_pending_run_cancels_it_without_running_anything() {
    TestCluster full = new TestCluster().engineConfig(c -> c.withMaxConcurrentRuns(1));
    try (full) {
      full.start("solo");
      Orchestrator solo = full.node("solo").orchestrator();
      full.apply(TestFlows.named("hold").step("hold", "gate", "{}").build());
      full.apply(TestFlows.named("queued").step("work", "echo", "{}").build());
      full.await(solo.submitAsync("hold", json("{}"), null, null));
      UUID queued = full.await(solo.submitAsync("queued", json("{}"), null, null)).run().runId();
      assertThat(solo.find(queued).status()).isEqualTo(RunStatus.PENDING);

      CompletableFuture<RunRecord> cancel = solo.cancelAsync(queued, "ops");
      full.runUntil(
          () -> cancel.isDone() && solo.find(queued).status() == RunStatus.CANCELLED,
          Duration.ofMinutes(1));
      assertThat(full.capabilities.callsOf("work")).isZero();
    }
  }

  @Test
  void cancelling_a_finished_run_is_a_conflict_naming_the_status() {
    UUID runId = submit(TestFlows.named("done").step("a", "echo", "{}").build());
    cluster.runUntil(() -> status(runId) == RunStatus.SUCCEEDED);
    CompletableFuture<RunRecord> cancel = orchestrator.cancelAsync(runId, "ops");
    cluster.runUntil(cancel::isDone);
    assertThatThrownBy(cancel::join)
        .hasCauseInstanceOf(RunConflictException.class)
        .hasMessageContaining("SUCCEEDED");
  }

  @Test
  void cancelling_a_parent_cancels_its_subflow() {
    cluster.apply(TestFlows.named("slow-child").step("hold", "gate", "{}").build());
    UUID runId =
        submit(
            TestFlows.named("parent2")
                .step("call", "call-flow", "{\"flow\": \"slow-child\"}")
                .build());
    cluster.runUntil(() -> cluster.capabilities.waiting("hold"));
    UUID child = orchestrator.get(runId).children().get(0);
    await(orchestrator.cancelAsync(runId, "ops"));
    assertThat(status(runId)).isEqualTo(RunStatus.CANCELLED);
    assertThat(status(child)).isEqualTo(RunStatus.CANCELLED);
  }

  @Test
  void unknown_runs_are_not_found() {
    UUID unknown = UUID.randomUUID();
    CompletableFuture<RunRecord> cancel = orchestrator.cancelAsync(unknown, "x");
    cluster.runUntil(cancel::isDone);
    assertThatThrownBy(cancel::join).hasCauseInstanceOf(RunNotFoundException.class);
    assertThatThrownBy(() -> orchestrator.get(unknown)).isInstanceOf(RunNotFoundException.class);
  }

  @Test
  void resume_is_refused_for_unknown_running_and_unrecoverable_runs() {
    UUID running = submit(TestFlows.named("r1").step("hold", "gate", "{}").build());
    cluster.runUntil(() -> cluster.capabilities.waiting("hold"));
    assertThatThrownBy(() -> join(orchestrator.resumeAsync(UUID.randomUUID(), "x")))
        .hasCauseInstanceOf(RunNotFoundException.class);
    assertThatThrownBy(() -> join(orchestrator.resumeAsync(running, "x")))
        .hasCauseInstanceOf(RunConflictException.class)
        .hasMessageContaining("RUNNING");

    UUID rejected = submit(TestFlows.named("r2").step("ask", "wait-approval", "{}").build());
    cluster.runUntil(() -> parked(rejected));
    await(orchestrator.answerAsync(rejected, SignalType.REJECT, null, "x", null));
    cluster.runUntil(() -> status(rejected) == RunStatus.FAILED);
    assertThatThrownBy(() -> join(orchestrator.resumeAsync(rejected, "x")))
        .hasCauseInstanceOf(RunConflictException.class)
        .hasMessageContaining("not recoverable");
  }

  private <T> T join(CompletableFuture<T> future) {
    cluster.runUntil(future::isDone);
    return future.join();
  }

  @Test
  void resuming_a_failed_run_retries_the_failed_step_with_a_fresh_budget() {
    UUID runId =
        submit(
            TestFlows.named("resumable")
                .step("ok", "echo", "{}")
                .step("bad", "flaky", "{\"succeedOn\": 3}")
                .build());
    cluster.runUntil(() -> status(runId) == RunStatus.FAILED);
    assertThat(orchestrator.find(runId).recoverable()).isTrue();

    RunRecord resumed = join(orchestrator.resumeAsync(runId, "ops"));
    assertThat(resumed.status()).isNotEqualTo(RunStatus.FAILED);
    cluster.runUntil(() -> status(runId).isTerminal());
    assertThat(status(runId))
        .as("attempt 2 fails again: one attempt per budget")
        .isEqualTo(RunStatus.FAILED);
    join(orchestrator.resumeAsync(runId, "ops"));
    cluster.runUntil(() -> status(runId) == RunStatus.SUCCEEDED);

    assertThat(cluster.capabilities.callsOf("ok")).isEqualTo(1);
    assertThat(cluster.capabilities.calls)
        .filteredOn(c -> c.step().equals("bad"))
        .extracting(TestCapabilitiesCall::attempt)
        .containsExactly(1, 2, 3);
    assertThat(orchestrator.get(runId).ownership())
        .extracting(ClaimRecord::reason)
        .containsExactly(ClaimReason.SUBMIT, ClaimReason.RESUME, ClaimReason.RESUME);
  }

  private interface TestCapabilitiesCall {
    static int attempt(Call call) {
      return call.attempt();
    }
  }

  @Test
  void resuming_a_subflow_is_refused_in_favour_of_its_root() {
    cluster.apply(
        TestFlows.named("failing-child").step("bad", "flaky", "{\"succeedOn\": 0}").build());
    UUID runId =
        submit(
            TestFlows.named("p3")
                .step("call", "call-flow", "{\"flow\": \"failing-child\"}")
                .build());
    cluster.runUntil(() -> status(runId) == RunStatus.FAILED);
    UUID child = orchestrator.get(runId).children().get(0);
    assertThatThrownBy(() -> join(orchestrator.resumeAsync(child, "x")))
        .hasCauseInstanceOf(RunConflictException.class)
        .hasMessageContaining(runId.toString());
    assertThat(List.of(status(child))).containsExactly(RunStatus.FAILED);
  }
}

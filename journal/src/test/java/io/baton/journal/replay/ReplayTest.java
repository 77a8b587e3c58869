package io.baton.journal.replay;

import static io.baton.journal.JournalFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.journal.ClaimReason;
import io.baton.journal.ErrorInfo;
import io.baton.journal.JournalEntry;
import io.baton.journal.JournalException;
import io.baton.journal.JournalFixtures;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunCompleted;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.journal.RunStatusChanged;
import io.baton.journal.RunWaiting;
import io.baton.journal.RunWoken;
import io.baton.journal.StepCompleted;
import io.baton.journal.StepFailed;
import io.baton.journal.StepStarted;
import io.baton.journal.WaitReason;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ReplayTest {
  private static final Instant LATER = Instant.parse("2026-03-01T11:00:00Z");
  private final JournalFixtures root = JournalFixtures.newRoot();

  @Test
  void a_fresh_run_is_pending_with_its_input_and_flow() {
    TreeState tree = Replay.fold(root.root(), List.of(root.created()));
    RunState run = tree.root();
    assertThat(run.status()).isEqualTo(RunStatus.PENDING);
    assertThat(run.flowHash()).isEqualTo("hash-a");
    assertThat(run.input()).isEqualTo(json("orderId", 42));
    assertThat(tree.lastSeq()).isEqualTo(1);
  }

  @Test
  void retries_failures_and_completions_fold_into_step_state() {
    TreeState tree =
        Replay.fold(
            root.root(),
            List.of(
                root.created(),
                root.rootEntry(new StepFailed("a", 1, "timeout", "slow", true, LATER, null)),
                root.rootEntry(new StepFailed("b", 1, "http_4xx", "bad", false, null, null))));
    StepState a = tree.root().step("a");
    assertThat(a.status()).isEqualTo(StepStatus.RETRY_WAIT);
    assertThat(a.retryAt()).isEqualTo(LATER);
    assertThat(a.nextAttempt()).isEqualTo(2);
    assertThat(tree.root().step("b").status()).isEqualTo(StepStatus.FAILED);

    tree.apply(root.rootEntry(new StepCompleted("a", 2, json("ok", 1), null)));
    assertThat(a.status()).isEqualTo(StepStatus.SUCCEEDED);
    assertThat(a.output()).isEqualTo(json("ok", 1));
    assertThat(a.error()).isNull();
    assertThat(a.retryAt()).isNull();
  }

  @Test
  void a_retry_now_ends_the_back_off_and_keeps_the_attempts_and_the_budget() {
    TreeState tree =
        Replay.fold(
            root.root(),
            List.of(
                root.created(),
                root.rootEntry(new StepFailed("a", 1, "timeout", "slow", true, LATER, null)),
                root.rootEntry(new RunWoken("a", WaitReason.RETRY, "retry-now", null))));
    StepState a = tree.root().step("a");
    assertThat(a.status()).isEqualTo(StepStatus.PENDING);
    assertThat(a.retryAt()).isNull();
    assertThat(a.nextAttempt()).isEqualTo(2);
    assertThat(a.budgetStart()).isEqualTo(1);
    assertThat(a.error().code()).isEqualTo("timeout");
  }

  @Test
  void a_resume_gives_failed_steps_a_fresh_budget_and_keeps_counting_attempts() {
    TreeState tree =
        Replay.fold(
            root.root(),
            List.of(
                root.created(),
                root.rootEntry(new StepFailed("a", 3, "boom", "x", false, null, null)),
                root.rootEntry(RunCompleted.failed(new ErrorInfo("boom", "x"), true)),
                root.rootEntry(
                    RunStatusChanged.to(RunStatus.FAILED, RunStatus.RUNNING, "resumed"))));
    StepState a = tree.root().step("a");
    assertThat(tree.root().status()).isEqualTo(RunStatus.RUNNING);
    assertThat(tree.root().error()).isNull();
    assertThat(a.status()).isEqualTo(StepStatus.PENDING);
    assertThat(a.budgetStart()).isEqualTo(4);
    assertThat(a.nextAttempt()).isEqualTo(4);
  }

  @Test
  void a_started_attempt_is_in_flight_until_its_outcome_or_wait_is_journaled() {
    TreeState tree =
        Replay.fold(root.root(), List.of(root.created(), root.rootEntry(new StepStarted("a", 1))));
    StepState a = tree.root().step("a");
    assertThat(a.inFlight()).isTrue();
    assertThat(a.startedAttempt()).isEqualTo(1);
    assertThat(a.status()).as("a start is not an outcome").isEqualTo(StepStatus.PENDING);
    assertThat(a.nextAttempt()).isEqualTo(1);

    tree.apply(root.rootEntry(new StepFailed("a", 1, "boom", "x", true, LATER, null)));
    assertThat(a.inFlight()).isFalse();
    tree.apply(root.rootEntry(new StepStarted("a", 2)));
    assertThat(a.startedAttempt()).isEqualTo(2);
    tree.apply(root.rootEntry(new RunWaiting("a", WaitReason.APPROVAL, null, null)));
    assertThat(a.inFlight()).as("a wait is the attempt's outcome").isFalse();
    tree.apply(root.rootEntry(new StepStarted("b", 1)));
    tree.apply(root.rootEntry(new StepCompleted("b", 1, json("ok", 1), null)));
    assertThat(tree.root().step("b").inFlight()).isFalse();
  }

  @Test
  void a_resume_runs_an_interrupted_step_again() {
    TreeState tree =
        Replay.fold(
            root.root(),
            List.of(
                root.created(),
                root.rootEntry(new StepStarted("a", 1)),
                root.rootEntry(
                    new RunStatusChanged(
                        RunStatus.RUNNING, RunStatus.FAILED, "interrupted", true, null)),
                root.rootEntry(
                    RunStatusChanged.to(RunStatus.FAILED, RunStatus.RUNNING, "resumed"))));
    StepState a = tree.root().step("a");
    assertThat(a.inFlight()).isFalse();
    assertThat(a.status()).isEqualTo(StepStatus.PENDING);
    assertThat(a.nextAttempt()).isEqualTo(1);
  }

  @Test
  void waits_and_wakes_fold_into_the_step_and_parking_into_the_run() {
    TreeState tree =
        Replay.fold(
            root.root(),
            List.of(
                root.created(),
                root.rootEntry(new RunWaiting("t", WaitReason.TIMER, LATER, null)),
                root.rootEntry(
                    new RunStatusChanged(
                        RunStatus.RUNNING, RunStatus.WAITING, "park", false, LATER))));
    assertThat(tree.root().step("t").status()).isEqualTo(StepStatus.WAITING);
    assertThat(tree.root().step("t").dueAt()).isEqualTo(LATER);
    assertThat(tree.root().status()).isEqualTo(RunStatus.WAITING);
    assertThat(tree.root().wakeAt()).isEqualTo(LATER);

    tree.apply(root.rootEntry(new RunWoken("t", WaitReason.TIMER, "due", null)));
    assertThat(tree.root().step("t").status()).isEqualTo(StepStatus.PENDING);
    assertThat(tree.root().step("t").dueAt()).isNull();
  }

  @Test
  void subflows_live_in_the_root_tree_and_claims_build_the_ownership_history() {
    UUID child = UUID.randomUUID();
    TreeState tree =
        Replay.fold(
            root.root(),
            List.of(
                root.created(),
                root.claimed("node-a", 4),
                root.entry(
                    child,
                    new RunCreated("sub", "h", json("i", 1), root.root(), "call", null, null)),
                root.rootEntry(new RunClaimed("node-b", 9, "node-a", ClaimReason.HANDOFF))));
    assertThat(tree.runs()).extracting(RunState::runId).containsExactly(root.root(), child);
    assertThat(tree.run(child).parentRunId()).isEqualTo(root.root());
    assertThat(tree.run(child).isRoot()).isFalse();
    assertThat(tree.owner()).isEqualTo("node-b");
    assertThat(tree.token()).isEqualTo(9);
    assertThat(tree.claims()).extracting(ClaimRecord::node).containsExactly("node-a", "node-b");
    assertThat(tree.claims().get(1).reason()).isEqualTo(ClaimReason.HANDOFF);
  }

  @Test
  void a_gap_or_a_foreign_entry_or_an_unknown_run_stops_the_replay() {
    TreeState tree = Replay.fold(root.root(), List.of(root.created()));
    root.at(3);
    JournalEntry gap = root.completed();
    assertThatThrownBy(() -> tree.apply(gap))
        .isInstanceOf(JournalException.class)
        .hasMessageContaining("jumps");

    JournalEntry foreign = JournalFixtures.newRoot().created();
    assertThatThrownBy(() -> tree.apply(foreign)).isInstanceOf(JournalException.class);

    root.at(2);
    JournalEntry stranger = root.entry(UUID.randomUUID(), RunCompleted.succeeded(null));
    assertThatThrownBy(() -> tree.apply(stranger))
        .isInstanceOf(JournalException.class)
        .hasMessageContaining("never created");
  }

  @Test
  void a_traced_run_keeps_its_traceparent_through_replay_and_snapshots() {
    String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    TreeState tree =
        Replay.fold(
            root.root(),
            List.of(
                root.rootEntry(
                    new RunCreated("f", "h", null, null, null, null, null, traceparent))));
    assertThat(tree.root().traceparent()).isEqualTo(traceparent);
    assertThat(TreeState.fromSnapshot(tree.toSnapshot()).root().traceparent())
        .isEqualTo(traceparent);
    JournalFixtures untraced = JournalFixtures.newRoot();
    assertThat(Replay.fold(untraced.root(), List.of(untraced.created())).root().traceparent())
        .isNull();
  }

  @Test
  void a_snapshot_restores_an_equal_state() {
    TreeState tree =
        Replay.fold(
            root.root(),
            List.of(
                root.created(),
                root.claimed("node-a", 4),
                root.rootEntry(new StepFailed("a", 1, "timeout", "slow", true, LATER, LATER)),
                root.rootEntry(
                    new RunWaiting("w", WaitReason.APPROVAL, null, json("prompt", "ok?")))));
    TreeState restored = TreeState.fromSnapshot(tree.toSnapshot());
    assertThat(restored.toSnapshot()).isEqualTo(tree.toSnapshot());
    assertThat(restored.root().step("a").retryAt()).isEqualTo(LATER);
    assertThat(restored.claims()).hasSize(1);
    assertThat(restored.lastSeq()).isEqualTo(4);
  }
}

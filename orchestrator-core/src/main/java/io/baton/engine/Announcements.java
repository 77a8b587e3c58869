package io.baton.engine;

import io.baton.journal.JournalEntry;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunCompleted;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatusChanged;
import io.baton.journal.RunWaiting;
import io.baton.journal.StepCompleted;
import io.baton.journal.WaitReason;
import io.baton.journal.replay.RunState;

/** Turns journaled entries into run events and metrics, once they are durable. */
final class Announcements {
  private Announcements() {}

  static void announce(Engine engine, ActiveTree tree, JournalEntry entry) {
    announce(engine, tree.rootId, tree.state, entry);
  }

  /** Announces an entry already folded into {@code state}. */
  static void announce(
      Engine engine,
      java.util.UUID rootId,
      io.baton.journal.replay.TreeState state,
      JournalEntry entry) {
    RunState run = state.run(entry.runId());
    if (entry.event() instanceof RunCreated created) {
      engine.metrics.runStarted(created.flowName());
    } else if (entry.event() instanceof RunStatusChanged changed) {
      statusChanged(engine, rootId, run, changed.to(), changed.reason(), entry);
    } else if (entry.event() instanceof RunCompleted done) {
      statusChanged(engine, rootId, run, done.status(), run.statusReason(), entry);
    } else if (entry.event() instanceof StepCompleted completed && completed.startedAt() != null) {
      engine.metrics.stepCompleted(
          java.time.Duration.between(completed.startedAt(), entry.timestamp()).toNanos());
    } else if (entry.event() instanceof RunWaiting waiting
        && waiting.reason() == WaitReason.APPROVAL) {
      engine.emit(
          new RunEvent.ApprovalRequested(
              entry.runId(), rootId, waiting.step(), waiting.detail(), entry.timestamp()));
    } else if (entry.event() instanceof RunClaimed claimed) {
      engine.metrics.claimed(claimed.reason());
      engine.emit(
          new RunEvent.Claimed(
              entry.runId(),
              claimed.node(),
              claimed.previousNode(),
              claimed.reason(),
              claimed.token(),
              entry.timestamp()));
    }
  }

  private static void statusChanged(
      Engine engine,
      java.util.UUID rootId,
      RunState run,
      io.baton.journal.RunStatus status,
      String reason,
      JournalEntry entry) {
    if (status.isTerminal()) {
      engine.metrics.runFinished(run.flowName(), status);
    }
    engine.emit(
        new RunEvent.StatusChanged(
            entry.runId(), rootId, run.flowName(), status, reason, entry.timestamp()));
  }
}

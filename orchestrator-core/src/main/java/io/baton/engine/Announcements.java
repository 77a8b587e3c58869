package io.baton.engine;

import io.baton.journal.JournalEntry;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunCompleted;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.journal.RunStatusChanged;
import io.baton.journal.RunWaiting;
import io.baton.journal.StepCompleted;
import io.baton.journal.StepFailed;
import io.baton.journal.WaitReason;
import io.baton.journal.replay.ClaimRecord;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.TreeState;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/** Turns journaled entries into run events and metrics, once they are durable. */
final class Announcements {
  private final EngineMetrics metrics;
  private final RunEvents events;

  Announcements(EngineMetrics metrics, RunEvents events) {
    this.metrics = metrics;
    this.events = events;
  }

  /** Names the capability of a run's step, for metrics; {@code "unknown"} when it cannot. */
  @FunctionalInterface
  interface CapabilityOf {
    CapabilityOf UNKNOWN = (run, step) -> "unknown";

    String capability(RunState run, String step);
  }

  /** Announces an entry already folded into {@code state}, the state of the tree {@code rootId}. */
  void announce(UUID rootId, TreeState state, JournalEntry entry) {
    announce(rootId, state, entry, CapabilityOf.UNKNOWN);
  }

  /** As {@link #announce(UUID, TreeState, JournalEntry)}, naming steps' capabilities. */
  void announce(UUID rootId, TreeState state, JournalEntry entry, CapabilityOf capabilities) {
    RunState run = state.run(entry.runId());
    if (entry.event() instanceof RunCreated created) {
      metrics.runStarted(created.flowName());
    } else if (entry.event() instanceof RunStatusChanged changed) {
      statusChanged(rootId, state, run, changed.to(), changed.reason(), entry);
    } else if (entry.event() instanceof RunCompleted done) {
      statusChanged(rootId, state, run, done.status(), run.statusReason(), entry);
    } else if (entry.event() instanceof StepCompleted completed && completed.startedAt() != null) {
      String capability = capabilities.capability(run, completed.step());
      metrics.stepCompleted(
          run.flowName(),
          capability,
          Duration.between(completed.startedAt(), entry.timestamp()).toNanos());
      events.emit(
          new RunEvent.StepFinished(
              entry.runId(),
              rootId,
              run.flowName(),
              completed.step(),
              capability,
              completed.attempt(),
              true,
              null,
              completed.startedAt(),
              entry.timestamp(),
              trace(state)));
    } else if (entry.event() instanceof StepFailed failed) {
      String capability = capabilities.capability(run, failed.step());
      metrics.stepFailed(run.flowName(), capability, failed.errorCode());
      if (failed.startedAt() != null) {
        events.emit(
            new RunEvent.StepFinished(
                entry.runId(),
                rootId,
                run.flowName(),
                failed.step(),
                capability,
                failed.attempt(),
                false,
                failed.errorCode(),
                failed.startedAt(),
                entry.timestamp(),
                trace(state)));
      }
    } else if (entry.event() instanceof RunWaiting waiting
        && waiting.reason() == WaitReason.APPROVAL) {
      events.emit(
          new RunEvent.ApprovalRequested(
              entry.runId(), rootId, waiting.step(), waiting.detail(), entry.timestamp()));
    } else if (entry.event() instanceof RunClaimed claimed) {
      metrics.claimed(claimed.reason());
      events.emit(
          new RunEvent.Claimed(
              entry.runId(),
              claimed.node(),
              claimed.previousNode(),
              claimed.reason(),
              claimed.token(),
              entry.timestamp(),
              trace(state)));
    }
  }

  private void statusChanged(
      UUID rootId,
      TreeState state,
      RunState run,
      RunStatus status,
      String reason,
      JournalEntry entry) {
    if (status.isTerminal()) {
      metrics.runFinished(run.flowName(), status);
    }
    events.emit(
        new RunEvent.StatusChanged(
            entry.runId(),
            rootId,
            run.flowName(),
            status,
            reason,
            entry.timestamp(),
            trace(state)));
  }

  private static RunEvent.TreeTrace trace(TreeState state) {
    RunState root = state.root();
    List<ClaimRecord> claims = state.claims();
    return new RunEvent.TreeTrace(
        root == null ? "?" : root.flowName(),
        root == null ? null : root.traceparent(),
        claims.isEmpty() ? null : claims.get(claims.size() - 1),
        claims.size() < 2 ? null : claims.get(claims.size() - 2));
  }
}

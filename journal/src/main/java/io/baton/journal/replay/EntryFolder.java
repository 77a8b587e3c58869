package io.baton.journal.replay;

import io.baton.journal.CommandApplied;
import io.baton.journal.JournalEntry;
import io.baton.journal.JournalEvent;
import io.baton.journal.JournalException;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunCompleted;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.journal.RunStatusChanged;
import io.baton.journal.RunWaiting;
import io.baton.journal.RunWoken;
import io.baton.journal.StepCompleted;
import io.baton.journal.StepFailed;
import io.baton.journal.StepRepeated;
import io.baton.journal.StepStarted;
import io.baton.journal.WaitReason;
import java.time.Instant;

/** The fold: how each event changes a tree's state. The only place that knows it. */
final class EntryFolder {
  private EntryFolder() {}

  static void fold(TreeState tree, JournalEntry entry) {
    Instant at = entry.timestamp();
    if (entry.event() instanceof RunCreated created) {
      created(tree, entry, created);
      return;
    }
    RunState run = tree.runs.get(entry.runId());
    if (run == null) {
      throw new JournalException(
          "entry seq " + entry.seq() + " names run " + entry.runId() + " that was never created",
          tree.rootRunId);
    }
    run.updatedAt = at;
    JournalEvent event = entry.event();
    if (event instanceof StepStarted started) {
      run.step(started.step()).startedAttempt = started.attempt();
    } else if (event instanceof StepCompleted completed) {
      completed(run, completed, at);
    } else if (event instanceof StepFailed failed) {
      failed(run, failed, at);
    } else if (event instanceof StepRepeated repeated) {
      repeated(run, repeated);
    } else if (event instanceof RunWaiting waiting) {
      waiting(run, waiting, at);
    } else if (event instanceof RunWoken woken) {
      woken(run, woken);
    } else if (event instanceof RunClaimed claimed) {
      claimed(tree, claimed, at);
    } else if (event instanceof RunStatusChanged changed) {
      statusChanged(run, changed);
    } else if (event instanceof RunCompleted done) {
      completed(run, done);
    } else if (event instanceof CommandApplied applied) {
      run.commands.add(
          new CommandRecord(applied.command(), applied.by(), applied.via(), applied.reason(), at));
    }
  }

  private static void created(TreeState tree, JournalEntry entry, RunCreated created) {
    RunState run = new RunState();
    run.runId = entry.runId();
    run.rootRunId = entry.rootRunId();
    run.parentRunId = created.parentRunId();
    run.parentStep = created.parentStep();
    run.flowName = created.flowName();
    run.flowHash = created.flowHash();
    run.input = created.input();
    run.trigger = created.trigger();
    run.traceparent = created.traceparent();
    run.idempotencyKey = created.idempotencyKey();
    run.createdAt = entry.timestamp();
    run.updatedAt = entry.timestamp();
    tree.runs.put(run.runId, run);
  }

  private static void completed(RunState run, StepCompleted completed, Instant at) {
    StepState step = run.step(completed.step());
    step.status = StepStatus.SUCCEEDED;
    step.attempts = completed.attempt();
    step.output = completed.output();
    step.error = null;
    step.retryAt = null;
    step.startedAt = completed.startedAt();
    step.finishedAt = at;
    step.startedAttempt = 0;
    step.clearWait();
  }

  private static void failed(RunState run, StepFailed failed, Instant at) {
    StepState step = run.step(failed.step());
    step.attempts = failed.attempt();
    step.error = failed.error();
    step.retryAt = failed.retryAt();
    step.startedAt = failed.startedAt();
    step.status = failed.willRetry() ? StepStatus.RETRY_WAIT : StepStatus.FAILED;
    step.finishedAt = failed.willRetry() ? null : at;
    step.startedAttempt = 0;
    step.clearWait();
  }

  /**
   * An iteration of a repeating step finished and the step runs again: its output stays (the next
   * iteration reads it), the next iteration gets a fresh retry budget, and waits for {@code nextAt}
   * if there is one.
   */
  private static void repeated(RunState run, StepRepeated repeated) {
    StepState step = run.step(repeated.step());
    step.status = repeated.nextAt() == null ? StepStatus.PENDING : StepStatus.RETRY_WAIT;
    step.attempts = repeated.attempt();
    step.budgetStart = repeated.attempt() + 1;
    step.iterations = repeated.iteration();
    step.output = repeated.output();
    step.error = null;
    step.retryAt = repeated.nextAt();
    step.startedAt = repeated.startedAt();
    step.finishedAt = null;
    step.startedAttempt = 0;
    step.clearWait();
  }

  private static void waiting(RunState run, RunWaiting waiting, Instant at) {
    StepState step = run.step(waiting.step());
    step.status = StepStatus.WAITING;
    step.waitReason = waiting.reason();
    step.dueAt = waiting.dueAt();
    step.waitDetail = waiting.detail();
    step.waitingSince = at;
    step.startedAttempt = 0;
  }

  /**
   * A wait ended: the step runs again (a back-off ended early by retry-now keeps its attempt count
   * and budget; only the due time goes).
   */
  private static void woken(RunState run, RunWoken woken) {
    StepState step = run.step(woken.step());
    step.clearWait();
    step.status = StepStatus.PENDING;
    if (woken.reason() == WaitReason.RETRY) {
      step.retryAt = null;
    }
  }

  private static void claimed(TreeState tree, RunClaimed claimed, Instant at) {
    tree.claims.add(
        new ClaimRecord(
            claimed.node(), claimed.token(), claimed.previousNode(), claimed.reason(), at));
    tree.owner = claimed.node();
    tree.token = claimed.token();
  }

  private static void statusChanged(RunState run, RunStatusChanged changed) {
    if (changed.from() == RunStatus.FAILED && changed.to() == RunStatus.RUNNING) {
      resetFailedSteps(run);
    }
    run.status = changed.to();
    run.statusReason = changed.reason();
    run.recoverable = changed.recoverable();
    run.wakeAt = changed.to() == RunStatus.WAITING ? changed.wakeAt() : null;
  }

  /**
   * A resume gives every failed step a fresh retry budget (and a repeating one a fresh {@code
   * repeat.max}); attempt numbers keep counting. A step that was interrupted while it executed
   * (started, no outcome) runs again.
   */
  private static void resetFailedSteps(RunState run) {
    run.error = null;
    for (StepState step : run.steps.values()) {
      step.startedAttempt = 0;
      if (step.status == StepStatus.FAILED) {
        step.status = StepStatus.PENDING;
        step.budgetStart = step.attempts + 1;
        step.iterations = 0;
        step.error = null;
        step.finishedAt = null;
      }
    }
  }

  private static void completed(RunState run, RunCompleted done) {
    run.status = done.status();
    run.output = done.output();
    run.error = done.error();
    run.recoverable = done.recoverable();
    run.statusReason = done.error() == null ? "" : done.error().message();
    run.wakeAt = null;
  }
}

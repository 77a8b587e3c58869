package io.baton.engine;

import io.baton.journal.WaitReason;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepState;
import io.baton.journal.replay.StepStatus;
import io.baton.time.Scheduler;
import java.time.Instant;

/** When a tree must be looked at again: the earliest retry or timer, and its timer. */
final class Wakeups {
  private final Scheduler scheduler;
  private final TreeLoop loop;

  Wakeups(Scheduler scheduler, TreeLoop loop) {
    this.scheduler = scheduler;
    this.loop = loop;
  }

  /** The earliest retry or timer due in the run, or null. */
  static Instant earliestDue(RunState run) {
    Instant earliest = null;
    for (StepState step : run.steps()) {
      Instant due = null;
      if (step.status() == StepStatus.RETRY_WAIT) {
        due = step.retryAt();
      } else if (step.status() == StepStatus.WAITING && step.waitReason() == WaitReason.TIMER) {
        due = step.dueAt();
      }
      if (due != null && (earliest == null || due.isBefore(earliest))) {
        earliest = due;
      }
    }
    return earliest;
  }

  /** The earliest retry or timer due among the tree's unfinished runs, or null. */
  static Instant earliestDue(ActiveTree tree) {
    Instant earliest = null;
    for (RunState run : tree.state.runs()) {
      if (run.status().isTerminal()) {
        continue;
      }
      Instant due = earliestDue(run);
      if (due != null && (earliest == null || due.isBefore(earliest))) {
        earliest = due;
      }
    }
    return earliest;
  }

  /** Why a tree parks, for its status reason. */
  static String describe(ActiveTree tree) {
    for (RunState run : tree.state.runs()) {
      for (StepState step : run.steps()) {
        if (step.status() == StepStatus.WAITING && step.waitReason() == WaitReason.APPROVAL) {
          return "waiting for approval of step " + step.name();
        }
      }
    }
    Instant due = earliestDue(tree);
    return due == null ? "waiting" : "waiting until " + due;
  }

  /** Arms (or moves earlier) the tree's one timer for its earliest due time. */
  void arm(ActiveTree tree, Instant now) {
    Instant due = earliestDue(tree);
    if (due == null || tree.retired() || !due.isAfter(now)) {
      return;
    }
    tree.armWake(due, now, scheduler, () -> loop.driveLater(tree));
  }
}

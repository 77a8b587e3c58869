package io.baton.engine;

import io.baton.flow.Flow;
import io.baton.flow.StepDefinition;
import io.baton.journal.RunWait;
import io.baton.journal.WaitReason;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepState;
import io.baton.journal.replay.StepStatus;
import java.util.Comparator;
import java.util.Optional;

/**
 * What a run that parks waits for, recorded in the status change that parks it (and so on its row,
 * at no cost to step appends). Of several waits, the one a person is most likely to act on: an
 * approval, then a retry (the soonest), then a timer (the soonest), then a child run. A repeating
 * step's pause before its next iteration is a timer. Pure.
 */
final class ParkedWait {
  /** Kinds in the order of {@link RunWait.Kind}'s constants, then the soonest, then by step. */
  private static final Comparator<RunWait> ORDER =
      Comparator.comparing(RunWait::kind)
          .thenComparing(RunWait::at, Comparator.nullsLast(Comparator.naturalOrder()))
          .thenComparing(RunWait::step);

  private ParkedWait() {}

  /** The run's wait, or null when none of its steps waits. */
  static RunWait of(RunState run, Flow flow) {
    RunWait best = null;
    for (StepState step : run.steps()) {
      RunWait wait = of(step, flow);
      if (wait != null && (best == null || ORDER.compare(wait, best) < 0)) {
        best = wait;
      }
    }
    return best;
  }

  private static RunWait of(StepState step, Flow flow) {
    if (step.status() == StepStatus.WAITING && step.waitReason() != null) {
      return step.waitReason() == WaitReason.APPROVAL
          ? RunWait.approval(step.name())
          : step.waitReason() == WaitReason.TIMER
              ? RunWait.timer(step.name(), step.dueAt())
              : RunWait.child(step.name());
    }
    if (step.status() != StepStatus.RETRY_WAIT || step.retryAt() == null) {
      return null;
    }
    if (step.error() == null) {
      return RunWait.timer(step.name(), step.retryAt()); // a repeating step's next iteration
    }
    int maxAttempts =
        Optional.ofNullable(flow.step(step.name()))
            .map(StepDefinition::retry)
            .map(retry -> Math.max(1, retry.maxAttempts()))
            .orElse(0);
    return RunWait.retry(
        step.name(), step.nextAttempt() - step.budgetStart() + 1, maxAttempts, step.retryAt());
  }
}

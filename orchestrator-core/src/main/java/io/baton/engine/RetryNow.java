package io.baton.engine;

import io.baton.journal.RunWoken;
import io.baton.journal.WaitReason;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepState;
import io.baton.journal.replay.StepStatus;
import io.baton.store.Signal;

/**
 * Retry-now: a person ends a failed step's back-off early. Journaled as a {@link RunWoken} of
 * reason {@link WaitReason#RETRY} (the step's due time goes; its attempt count and retry budget
 * stay, so {@code maxAttempts} still applies) with the command's record; the next attempt starts
 * once both are journaled, on whichever node then owns the tree. Pure decisions on the tree.
 */
final class RetryNow {
  static final String COMMAND = "retry-now";

  private RetryNow() {}

  /** Whether the step waits for its next attempt after a failed one (not a repeat's pause). */
  static boolean inBackOff(StepState step) {
    return step != null
        && step.status() == StepStatus.RETRY_WAIT
        && step.error() != null
        && step.retryAt() != null;
  }

  /**
   * Ends the back-off of the step the signal names; false (nothing decided) when that step is not
   * in back-off as journaled, or its next attempt already started.
   */
  static boolean apply(ActiveTree tree, RunState run, Signal signal) {
    if (signal.step() == null || !run.hasStep(signal.step())) {
      return false;
    }
    StepState step = run.step(signal.step());
    StepKey key = new StepKey(run.runId(), step.name());
    if (!inBackOff(step) || tree.busy(key)) {
      return false;
    }
    // The step counts as busy until this is journaled: it starts on journaled state only.
    tree.decide(
        run.runId(), new RunWoken(step.name(), WaitReason.RETRY, COMMAND, signal.payload()), key);
    return true;
  }
}

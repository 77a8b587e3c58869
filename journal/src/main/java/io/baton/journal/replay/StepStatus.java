package io.baton.journal.replay;

/**
 * A step's status as the journal knows it. A step that is executing right now is PENDING here:
 * starting a step is not journaled.
 */
public enum StepStatus {
  /** Not finished; it runs when its dependencies have succeeded. */
  PENDING,
  /**
   * An attempt failed, or an iteration of a repeating step finished, and the next attempt is due at
   * {@code retryAt}.
   */
  RETRY_WAIT,
  /** Waiting for an approval, a timer or a child run. */
  WAITING,
  SUCCEEDED,
  FAILED;

  public boolean isFinished() {
    return this == SUCCEEDED || this == FAILED;
  }
}

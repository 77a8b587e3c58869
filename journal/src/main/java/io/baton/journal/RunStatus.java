package io.baton.journal;

/** The status of a run; the allowed transitions are enforced by the engine's state machine. */
public enum RunStatus {
  PENDING,
  RUNNING,
  WAITING,
  SUCCEEDED,
  FAILED,
  CANCELLED;

  /** Terminal runs are never touched by recovery; FAILED may still be resumed by a person. */
  public boolean isTerminal() {
    return this == SUCCEEDED || this == FAILED || this == CANCELLED;
  }
}

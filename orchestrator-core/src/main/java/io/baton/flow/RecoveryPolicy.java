package io.baton.flow;

/** What a node does with a run of this flow that it adopts after the owner stopped mid-run. */
public enum RecoveryPolicy {
  /** Adopt the run and continue from its last journaled step. */
  RESUME,
  /** Mark it FAILED and recoverable, for a person to resume. */
  FAIL
}

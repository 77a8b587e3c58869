package io.baton.journal;

/** Why a node took ownership of a run tree; journaled with every claim. */
public enum ClaimReason {
  /** The node that accepted the submission started it at once. */
  SUBMIT,
  /** The node restarted and re-acquired its own runs. */
  STARTUP,
  /** The previous owner's lease expired. */
  ORPHAN,
  /** The previous owner shut down gracefully and released its lease. */
  HANDOFF,
  /** A pending run that no node had started yet. */
  PENDING,
  /** A parked run whose timer fell due or that received a signal. */
  WAKE,
  /** A person resumed a failed, recoverable run. */
  RESUME,
  /** Another node offered the run to this one to even out the cluster's load (rebalancing). */
  REBALANCE
}

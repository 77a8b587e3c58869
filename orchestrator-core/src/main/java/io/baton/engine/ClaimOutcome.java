package io.baton.engine;

/** What became of one attempt to claim a run tree. */
public enum ClaimOutcome {
  /** This node owns the tree now and executes it. */
  ADOPTED,
  /** Claimed and settled by the recovery policy (failed or cancelled), then released. */
  SETTLED,
  /** Nothing to do: the tree is finished, not due, or unknown; the lease was released. */
  NOTHING_TO_DO,
  /** Another live node holds the tree's run key. */
  OWNED_ELSEWHERE,
  /** This node is full or draining. */
  NO_CAPACITY,
  /** This node executes the tree already. */
  ALREADY_OWNED,
  /**
   * The tree cannot be loaded on this node (see {@link SetAsideRuns}); it is set aside and tried
   * again later.
   */
  SET_ASIDE,
  /** A store or lease call failed; the tree is left for a later attempt. */
  FAILED
}

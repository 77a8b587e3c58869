package io.baton.journal;

/** What a waiting step waits for. */
public enum WaitReason {
  /** A person approves or rejects. */
  APPROVAL,
  /** A durable timer falls due. */
  TIMER,
  /** A subflow (child run) finishes. */
  CHILD,
  /**
   * A failed attempt's back-off runs out. Steps do not suspend for it (their status is {@code
   * RETRY_WAIT}); it names the wait in a {@link RunWoken} that ends a back-off early (retry-now).
   */
  RETRY
}

package io.baton.journal;

/** What a waiting step waits for. */
public enum WaitReason {
  /** A person approves or rejects. */
  APPROVAL,
  /** A durable timer falls due. */
  TIMER,
  /** A subflow (child run) finishes. */
  CHILD
}

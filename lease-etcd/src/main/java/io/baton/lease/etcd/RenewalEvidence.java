package io.baton.lease.etcd;

import java.time.Duration;

/**
 * Tells, from readings of another process's lease ({@code LeaseTimeToLive}), whether someone is
 * renewing it, despite etcd's answers in whole seconds.
 *
 * <p>etcd truncates the remaining time to whole seconds, toward zero; a lease that has expired but
 * whose keys etcd has not deleted yet has a negative remaining time, so it reads 0 for up to a
 * second after it ended. A reading {@code r} taken by etcd at some moment between sending the
 * request ({@code sentAt}) and receiving the answer ({@code receivedAt}) therefore says: unless
 * renewed, the lease ends before {@code receivedAt + r + 1s} (before {@code receivedAt} when {@code
 * r} is negative or the lease is gone); and, when {@code r} is at least 1, not before {@code sentAt
 * + r}. An unrenewed lease keeps its end, so a reading whose "not before" reaches an earlier
 * reading's "before" proves a renewal; the TTL going up between readings is the plainest case. All
 * times are monotonic nanoseconds. Not thread-safe.
 */
final class RenewalEvidence {
  private static final long SECOND = Duration.ofSeconds(1).toNanos();

  private boolean read;
  private long endsBefore;

  /**
   * Adds one reading; returns true when the readings so far prove that the lease was renewed.
   *
   * @param remainingSeconds etcd's TTL answer (-1 when etcd no longer has the lease)
   */
  boolean renewed(long sentAt, long receivedAt, long remainingSeconds) {
    boolean proof =
        read && remainingSeconds >= 1 && sentAt + remainingSeconds * SECOND - endsBefore >= 0;
    long bound = remainingSeconds < 0 ? receivedAt : receivedAt + (remainingSeconds + 1) * SECOND;
    if (!read || bound - endsBefore < 0) {
      endsBefore = bound;
    }
    read = true;
    return proof;
  }

  /** The monotonic time before which the lease ends unless renewed; only after a reading. */
  long endsBefore() {
    if (!read) {
      throw new IllegalStateException("no reading yet");
    }
    return endsBefore;
  }
}

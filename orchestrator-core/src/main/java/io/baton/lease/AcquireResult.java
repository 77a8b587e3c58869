package io.baton.lease;

import java.time.Instant;
import java.util.UUID;

/** The outcome of acquiring a run's lease. */
public sealed interface AcquireResult {
  UUID runId();

  /**
   * The caller owns the run now. {@code token} is the run's fencing token: larger than any token an
   * earlier owner of this run held.
   */
  record Acquired(UUID runId, long token) implements AcquireResult {}

  /**
   * Another live node owns the run.
   *
   * @param expiresAt when the owner's lease expires unless renewed; null when unknown
   */
  record OwnedBy(UUID runId, String owner, Instant expiresAt) implements AcquireResult {}

  default boolean isAcquired() {
    return this instanceof Acquired;
  }
}

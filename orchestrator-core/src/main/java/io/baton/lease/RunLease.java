package io.baton.lease;

import java.time.Instant;
import java.util.UUID;

/** Who holds a run's lease, under which token, and until when unless renewed. */
public record RunLease(UUID runId, String owner, long token, Instant expiresAt) {}

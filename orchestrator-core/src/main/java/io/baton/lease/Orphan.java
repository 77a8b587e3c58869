package io.baton.lease;

import java.util.UUID;

/**
 * A run whose owner's lease vanished.
 *
 * @param previousOwner the node that held it, or empty when the lease service no longer knows (its
 *     history was compacted)
 * @param handoff true when the owner released its lease in a graceful shutdown, false when the
 *     lease expired
 */
public record Orphan(UUID runId, String previousOwner, boolean handoff) {}

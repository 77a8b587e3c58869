package io.baton.lease;

import java.util.List;

/**
 * Receives orphans pushed by {@link LeaseManager#watchOrphans}. Called on the lease manager's own
 * thread: implementations must return quickly and hand the work elsewhere.
 */
public interface OrphanListener {
  /** Runs whose owner's lease expired or was revoked (never runs released one by one). */
  void onOrphans(List<Orphan> orphans);

  /**
   * A node's lease expired or was revoked ({@code handoff}: in a graceful shutdown). The runs it
   * created and started under its node token hold no run key, so they are orphaned too: the caller
   * finds them among the runs recorded as that node's. {@code revision} is the lease service's
   * revision of the node key's deletion: every token of the lease that ended is below it, and every
   * token of a lease the same node is granted afterwards is above it, so the caller must claim only
   * runs fenced below it (the node may already run new ones under a fresh lease).
   */
  default void onNodeGone(String nodeId, boolean handoff, long revision) {}

  /**
   * Orphans may have been missed (the watch could not resume where it stopped, for example because
   * that history was compacted): the caller should scan for orphans now.
   */
  void onWatchGap(String reason);

  /**
   * A node stored runs PENDING for any node to claim ({@link LeaseManager#hintPending}): a reason
   * to look for them now rather than at the next periodic pass. Hints are best effort: they may be
   * merged or, while the lease service is unreachable, lost; the periodic pass remains the net.
   */
  default void onPendingRuns(String fromNode) {}
}

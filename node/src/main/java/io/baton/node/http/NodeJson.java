package io.baton.node.http;

import java.time.Instant;

/**
 * A node of the cluster.
 *
 * @param self whether this is the node that answered
 * @param leaseState for the answering node its own view ({@code CONNECTED}, {@code SUSPENDED},
 *     {@code LOST}); {@code ALIVE} for other nodes whose lease lives; {@code GONE} for a node that
 *     has no lease but is still recorded as the owner of running runs (they await adoption)
 * @param ownedRuns RUNNING root runs recorded as owned by the node
 * @param activeRuns the run trees the node said it executes at its last load announcement
 * @param stepsPerSecond the steps it said it completed per second
 * @param accepting whether it takes runs moved by rebalancing
 * @param leaseExpiresAt when its lease ends unless it is renewed, as the lease service told the
 *     answering node (etcd: within a second); null for a gone node or one whose lease could not be
 *     read
 * @param leaseRemainingMillis how long that was from the answer, by the answering node's clock (so
 *     that a browser's clock does not skew it); null with {@code leaseExpiresAt}
 * @param claims runs it claimed since it started, at its last load announcement
 * @param fencedOutWrites journal appends refused since it started because another node had claimed
 *     the run, at its last load announcement (every rebalancing interval)
 */
public record NodeJson(
    String id,
    String address,
    Instant startedAt,
    String version,
    boolean draining,
    boolean self,
    String leaseState,
    int ownedRuns,
    int activeRuns,
    double stepsPerSecond,
    boolean accepting,
    Instant leaseExpiresAt,
    Long leaseRemainingMillis,
    long claims,
    long fencedOutWrites) {
  /** A node without a lease still recorded as the owner of {@code ownedRuns} running runs. */
  static NodeJson gone(String id, int ownedRuns) {
    return new NodeJson(
        id, "", null, "", false, false, "GONE", ownedRuns, 0, 0, false, null, null, 0, 0);
  }
}

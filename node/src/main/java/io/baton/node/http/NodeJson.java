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
    boolean accepting) {}

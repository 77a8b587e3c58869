/**
 * A node of the cluster, assembled: {@link io.baton.cluster.OrchestratorNode} wires the engine,
 * recovery (startup recovery, the orphan claimer), the signal poller, the lease manager and the
 * stores, and owns the node's lifecycle. Dependencies run one way: cluster → recovery → engine.
 */
package io.baton.cluster;

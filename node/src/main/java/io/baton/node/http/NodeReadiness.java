package io.baton.node.http;

import io.baton.cluster.OrchestratorNode;
import io.baton.lease.ConnectionState;
import java.util.ArrayList;
import java.util.List;

/**
 * A node is ready while it is started and not draining, holds a live lease and its store answers a
 * ping. {@link #shuttingDown()} turns it not ready at once, before the drain begins (the node
 * process registers it with {@link OrchestratorNode#onReadinessOff}, the first step of the node's
 * shutdown order). Thread-safe.
 */
public final class NodeReadiness implements Readiness {
  private final OrchestratorNode node;
  private volatile boolean shuttingDown;

  public NodeReadiness(OrchestratorNode node) {
    this.node = node;
  }

  /** From now on the node is not ready, whatever else holds. */
  public void shuttingDown() {
    shuttingDown = true;
  }

  @Override
  public List<String> notReadyReasons() {
    List<String> reasons = new ArrayList<>();
    if (shuttingDown) {
      reasons.add("node " + node.nodeId() + " is shutting down");
    }
    OrchestratorNode.Phase phase = node.phase();
    if (phase != OrchestratorNode.Phase.READY) {
      reasons.add("node " + node.nodeId() + " is " + phase);
    }
    ConnectionState lease = node.leases().state();
    if (lease != ConnectionState.CONNECTED) {
      reasons.add("its lease is " + lease);
    }
    try {
      node.stores().metadata().ping();
    } catch (RuntimeException failure) {
      reasons.add("its store does not answer: " + failure.getMessage());
    }
    return reasons;
  }
}

package io.baton.node.http;

import io.baton.cluster.OrchestratorNode;
import io.baton.lease.ConnectionState;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A node is ready while it is started and not draining, holds a live lease and its store answers a
 * ping. {@link #shuttingDown()} turns it not ready at once, before the drain begins (the node
 * process registers it with {@link OrchestratorNode#onReadinessOff}, the first step of the node's
 * shutdown order). A {@link #hold} keeps it not ready for a reason of the caller's (the warm-up
 * before the first traffic) until released. Thread-safe.
 */
public final class NodeReadiness implements Readiness {
  private final OrchestratorNode node;
  private final Set<String> holds = ConcurrentHashMap.newKeySet();
  private volatile boolean shuttingDown;

  public NodeReadiness(OrchestratorNode node) {
    this.node = node;
  }

  /** From now on the node is not ready, whatever else holds. */
  public void shuttingDown() {
    shuttingDown = true;
  }

  /**
   * Keeps the node not ready, with {@code reason} among the reasons, until the returned hold is run
   * (running it again does nothing).
   */
  public Runnable hold(String reason) {
    String held = "node " + node.nodeId() + " is " + reason;
    holds.add(held);
    return () -> holds.remove(held);
  }

  @Override
  public List<String> notReadyReasons() {
    List<String> reasons = new ArrayList<>(holds);
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

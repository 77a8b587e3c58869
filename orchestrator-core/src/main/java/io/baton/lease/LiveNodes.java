package io.baton.lease;

import java.util.List;

/**
 * The nodes whose lease was alive when the lease service was read, and the service's revision at
 * that read. A node absent from the list that announces itself later gets a node token above {@code
 * revision}, so a run fenced at or above it was started, or adopted, after the read: a claimer that
 * took the node for gone must leave such runs alone.
 */
public record LiveNodes(List<NodeInfo> nodes, long revision) {
  public LiveNodes {
    nodes = List.copyOf(nodes);
  }
}

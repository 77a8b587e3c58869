package io.baton.lease;

import java.time.Instant;
import java.util.Objects;

/**
 * What a node announces about itself while its lease lives.
 *
 * @param address where its HTTP API answers ({@code host:port}), or empty
 * @param draining true once the node has begun a graceful shutdown: runs it releases are a hand-off
 * @param load how busy it said it was at its last announcement (the rebalancer reads it)
 */
public record NodeInfo(
    String nodeId,
    String address,
    Instant startedAt,
    String version,
    boolean draining,
    NodeLoad load) {
  public NodeInfo {
    Objects.requireNonNull(nodeId, "nodeId");
    address = address == null ? "" : address;
    version = version == null ? "" : version;
    load = load == null ? NodeLoad.UNKNOWN : load;
  }

  /** A node that has not reported its load. */
  public NodeInfo(
      String nodeId, String address, Instant startedAt, String version, boolean draining) {
    this(nodeId, address, startedAt, version, draining, NodeLoad.UNKNOWN);
  }

  public NodeInfo asDraining() {
    return new NodeInfo(nodeId, address, startedAt, version, true, load);
  }

  public NodeInfo withLoad(NodeLoad load) {
    return new NodeInfo(nodeId, address, startedAt, version, draining, load);
  }
}

package io.baton.lease;

import java.time.Instant;
import java.util.Objects;

/**
 * What a node announces about itself while its lease lives.
 *
 * @param address where its HTTP API answers ({@code host:port}), or empty
 * @param draining true once the node has begun a graceful shutdown: runs it releases are a hand-off
 */
public record NodeInfo(
    String nodeId, String address, Instant startedAt, String version, boolean draining) {
  public NodeInfo {
    Objects.requireNonNull(nodeId, "nodeId");
    address = address == null ? "" : address;
    version = version == null ? "" : version;
  }

  public NodeInfo asDraining() {
    return new NodeInfo(nodeId, address, startedAt, version, true);
  }
}

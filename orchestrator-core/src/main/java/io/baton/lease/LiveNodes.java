package io.baton.lease;

import java.util.List;

/**
 * The nodes whose lease was alive when the lease service was read, and the revision it was read at.
 *
 * <p>The revision splits incarnations: a node absent from {@code nodes} that announces itself later
 * (a fresh lease after its previous one expired or was lost) gets a node token, and run keys, above
 * {@code revision}; every token its earlier leases held is below it. So a caller that adopts the
 * runs of absent nodes adopts only those fenced by a token below {@code revision}, never the runs a
 * node started after it came back. Immutable.
 *
 * @param nodes the live nodes, each once
 * @param revision the lease service's revision at which {@code nodes} was read
 */
public record LiveNodes(List<NodeInfo> nodes, long revision) {
  public LiveNodes {
    nodes = List.copyOf(nodes);
  }
}

package io.baton.lease;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The nodes whose lease was alive when the lease service was read, and the revision it was read at.
 *
 * <p>The revision splits incarnations: a node absent from {@code nodes} that announces itself later
 * (a fresh lease after its previous one expired or was lost) gets a node token, and run keys, above
 * {@code revision}; every token its earlier leases held is below it. So a caller that adopts the
 * runs of absent nodes adopts only those fenced by a token below {@code revision}, never the runs a
 * node started after it came back. Immutable.
 *
 * <p>{@code tokens} names each listed node's incarnation: the node token of the lease it was listed
 * on. {@link LeaseManager#revokeDeadNode} takes it, so that a node found dead is revoked only if
 * the lease it was found dead on is still the one that stands, never a fresh incarnation's.
 *
 * @param nodes the live nodes, each once
 * @param revision the lease service's revision at which {@code nodes} was read
 * @param tokens each listed node's node token, by node id
 */
public record LiveNodes(List<NodeInfo> nodes, long revision, Map<String, Long> tokens) {
  public LiveNodes {
    nodes = List.copyOf(nodes);
    tokens = Map.copyOf(tokens);
  }

  /** Live nodes whose incarnations are not known (tests). */
  public LiveNodes(List<NodeInfo> nodes, long revision) {
    this(nodes, revision, Map.of());
  }

  /** The node token of the listed node's lease, if the node is listed with one. */
  public OptionalLong tokenOf(String nodeId) {
    Long token = tokens.get(nodeId);
    return token == null ? OptionalLong.empty() : OptionalLong.of(token);
  }
}

package io.baton.node.http;

import io.baton.cluster.OrchestratorNode;
import io.baton.lease.NodeInfo;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/cluster}: every node with a live lease, plus nodes without one that are still
 * recorded as owners of running runs; {@code GET /api/version}: this node's id and version.
 */
final class ClusterRoutes implements Routes {
  private final OrchestratorNode node;
  private final String version;

  ClusterRoutes(OrchestratorNode node, String version) {
    this.node = node;
    this.version = version;
  }

  @Override
  public void addTo(ApiRouter routes) {
    routes
        .get("/api/cluster", this::cluster)
        .permission(Permission.CLUSTER_READ)
        .summary("Every node with a live lease, and gone nodes still recorded as owners")
        .responds(200, "the nodes");
    routes
        .get("/api/version", this::version)
        .permission(Permission.CLUSTER_READ, FlowScope.NONE)
        .summary("This node's id and version")
        .responds(200, "the node id and version");
  }

  private void cluster(Context ctx) {
    Map<String, Integer> owned = new HashMap<>(node.stores().metadata().countRunningRootsByNode());
    List<NodeJson> nodes = new ArrayList<>();
    for (NodeInfo info : node.leases().listNodes()) {
      Integer runs = owned.remove(info.nodeId());
      nodes.add(live(info, runs == null ? 0 : runs));
    }
    owned.forEach(
        (gone, runs) -> nodes.add(new NodeJson(gone, "", null, "", false, false, "GONE", runs)));
    nodes.sort(Comparator.comparing(NodeJson::id));
    Json.send(ctx, 200, Json.object("self", node.nodeId(), "nodes", nodes));
  }

  private NodeJson live(NodeInfo info, int runs) {
    boolean self = info.nodeId().equals(node.nodeId());
    return new NodeJson(
        info.nodeId(),
        info.address(),
        info.startedAt(),
        info.version(),
        info.draining(),
        self,
        self ? node.leases().state().name() : "ALIVE",
        runs);
  }

  private void version(Context ctx) {
    Json.send(ctx, 200, Json.object("nodeId", node.nodeId(), "version", version));
  }
}

package io.baton.node.http;

import io.baton.cluster.OrchestratorNode;
import io.baton.lease.NodeInfo;
import io.javalin.http.Context;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/cluster}: every node with a live lease (when it ends unless renewed, and the
 * claims and fenced-out writes it announced with its load), plus nodes without one that are still
 * recorded as owners of running runs; {@code GET /api/version}: this node's id and version.
 */
final class ClusterRoutes implements Routes {
  private final OrchestratorNode node;
  private final String version;
  private final Clock clock;

  ClusterRoutes(OrchestratorNode node, String version, Clock clock) {
    this.node = node;
    this.version = version;
    this.clock = clock;
  }

  @Override
  public void addTo(ApiRouter routes) {
    routes
        .get("/api/cluster", this::cluster)
        .permission(Permission.CLUSTER_READ)
        .summary(
            "Every node with a live lease (its expiry, claims and fenced-out writes), and gone"
                + " nodes still recorded as owners")
        .responds(200, "the nodes");
    routes
        .post("/api/cluster/rebalance", this::rebalance)
        .permission(Permission.CLUSTER_ADMIN)
        .summary(
            "The rebalancing moves the nodes' announced loads call for; without dryRun=true this"
                + " node also carries out its own moves now")
        .responds(200, "the moves", 400, "dryRun is not true or false");
    routes
        .get("/api/version", this::version)
        .permission(Permission.CLUSTER_READ, FlowScope.NONE)
        .summary("This node's id and version")
        .responds(200, "the node id and version");
  }

  private void cluster(Context ctx) {
    Map<String, Integer> owned = new HashMap<>(node.stores().metadata().countRunningRootsByNode());
    List<NodeJson> nodes = new ArrayList<>();
    Map<String, Instant> expiries = node.leases().nodeLeaseExpiries();
    Instant now = clock.instant();
    for (NodeInfo info : node.leases().listNodes()) {
      Integer runs = owned.remove(info.nodeId());
      nodes.add(live(info, runs == null ? 0 : runs, expiries.get(info.nodeId()), now));
    }
    owned.forEach((gone, runs) -> nodes.add(NodeJson.gone(gone, runs)));
    nodes.sort(Comparator.comparing(NodeJson::id));
    Json.send(ctx, 200, Json.object("self", node.nodeId(), "nodes", nodes));
  }

  private NodeJson live(NodeInfo info, int runs, Instant leaseExpiresAt, Instant now) {
    boolean self = info.nodeId().equals(node.nodeId());
    return new NodeJson(
        info.nodeId(),
        info.address(),
        info.startedAt(),
        info.version(),
        info.draining(),
        self,
        self ? node.leases().state().name() : "ALIVE",
        runs,
        info.load().activeRuns(),
        info.load().stepsPerSecond(),
        info.load().accepting(),
        leaseExpiresAt,
        leaseExpiresAt == null ? null : Duration.between(now, leaseExpiresAt).toMillis(),
        info.load().claims(),
        info.load().fencedOutWrites());
  }

  private void rebalance(Context ctx) {
    String dryRun = ctx.queryParam("dryRun");
    if (dryRun != null && !dryRun.equals("true") && !dryRun.equals("false")) {
      throw new InvalidRequestException("dryRun must be true or false, got '" + dryRun + "'");
    }
    boolean planOnly = "true".equals(dryRun);
    ctx.future(
        () ->
            (planOnly ? node.rebalancePlan() : node.rebalanceNow())
                .thenAccept(
                    moves -> Json.send(ctx, 200, Json.object("dryRun", planOnly, "moves", moves))));
  }

  private void version(Context ctx) {
    Json.send(ctx, 200, Json.object("nodeId", node.nodeId(), "version", version));
  }
}

package io.baton.node.http;

import io.baton.cluster.OrchestratorNode;
import io.javalin.http.Context;
import java.util.List;

/**
 * {@code GET /health/live}: 200 while the process serves, 503 once its node has failed for good
 * (startup recovery failed: restart it). {@code GET /health/ready}: 200 when the {@link Readiness}
 * says so, else 503 with its reasons.
 */
final class HealthRoutes implements Routes {
  private final Readiness readiness;
  private final OrchestratorNode node;

  HealthRoutes(Readiness readiness, OrchestratorNode node) {
    this.readiness = readiness;
    this.node = node;
  }

  @Override
  public void addTo(ApiRouter routes) {
    routes
        .get(HttpApi.LIVE_PATH, this::live)
        .permission(Permission.PUBLIC)
        .summary("Liveness: 503 once the node failed for good")
        .responds(200, "the process serves", 503, "the node failed; restart it");
    routes
        .get(HttpApi.READY_PATH, this::ready)
        .permission(Permission.PUBLIC)
        .summary("Readiness: whether the node takes work")
        .responds(200, "ready", 503, "not ready, with the reasons");
  }

  private void live(Context ctx) {
    if (node.phase() != OrchestratorNode.Phase.FAILED) {
      Json.send(ctx, 200, Json.object("status", "UP"));
      return;
    }
    String why = node.startFailure().map(Throwable::toString).orElse("unknown");
    Json.send(
        ctx,
        503,
        Json.object(
            "status",
            "DOWN",
            "reasons",
            List.of("node " + node.nodeId() + " failed to recover its runs at startup: " + why)));
  }

  private void ready(Context ctx) {
    List<String> reasons = readiness.notReadyReasons();
    if (reasons.isEmpty()) {
      Json.send(ctx, 200, Json.object("status", "READY", "reasons", reasons));
    } else {
      Json.send(ctx, 503, Json.object("status", "NOT_READY", "reasons", reasons));
    }
  }
}

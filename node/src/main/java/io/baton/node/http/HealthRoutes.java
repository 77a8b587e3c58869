package io.baton.node.http;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.List;

/**
 * {@code GET /health/live}: 200 while the process serves. {@code GET /health/ready}: 200 when the
 * {@link Readiness} says so, else 503 with its reasons.
 */
final class HealthRoutes implements Routes {
  private final Readiness readiness;

  HealthRoutes(Readiness readiness) {
    this.readiness = readiness;
  }

  @Override
  public void addTo(RoutesConfig routes) {
    routes.get("/health/live", ctx -> Json.send(ctx, 200, Json.object("status", "UP")));
    routes.get("/health/ready", this::ready);
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

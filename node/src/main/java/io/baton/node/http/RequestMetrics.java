package io.baton.node.http;

import com.codahale.metrics.MetricRegistry;
import io.baton.engine.EngineMetrics;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.router.Endpoint;
import java.util.concurrent.TimeUnit;

/**
 * Times every request into {@code http.server.requests{method,route,status}} (Prometheus: {@code
 * http_server_requests_seconds}). The route is the matched path template ({@code /api/runs/{id}}),
 * never the raw path, so the series stay few; a request no route matched counts as {@code
 * unmatched}.
 */
final class RequestMetrics {
  static final String NAME = "http.server.requests";
  private static final String STARTED = "baton.requestStartedNanos";

  private final MetricRegistry metrics;

  RequestMetrics(MetricRegistry metrics) {
    this.metrics = metrics;
  }

  /** Adds the timing filters around every request. */
  void register(RoutesConfig routes) {
    routes.before(ctx -> ctx.attribute(STARTED, System.nanoTime()));
    routes.after(this::record);
  }

  private void record(Context ctx) {
    Long started = ctx.attribute(STARTED);
    if (started == null) {
      return;
    }
    Endpoint matched = ctx.endpoints().matchedHttpEndpoint();
    String route = matched == null ? "unmatched" : matched.path;
    metrics
        .timer(
            EngineMetrics.labelled(
                NAME,
                "method",
                ctx.method().name(),
                "route",
                route,
                "status",
                String.valueOf(ctx.statusCode())))
        .update(System.nanoTime() - started, TimeUnit.NANOSECONDS);
  }
}

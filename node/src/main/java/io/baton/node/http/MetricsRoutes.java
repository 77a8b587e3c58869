package io.baton.node.http;

import com.codahale.metrics.MetricRegistry;
import io.baton.node.metrics.PrometheusExposition;
import io.javalin.http.Context;

/**
 * {@code GET /metrics}: the node's Dropwizard registry and the JVM's standard series in the
 * Prometheus text format (the naming rules are {@link PrometheusExposition}'s).
 */
final class MetricsRoutes implements Routes {
  private final PrometheusExposition exposition;

  MetricsRoutes(MetricRegistry metrics) {
    this.exposition = new PrometheusExposition(metrics);
  }

  @Override
  public void addTo(ApiRouter routes) {
    routes
        .get(HttpApi.METRICS_PATH, this::scrape)
        .permission(Permission.METRICS_READ)
        .summary("Metrics in Prometheus text format")
        .produces("text/plain")
        .responds(200, "the metrics");
  }

  private void scrape(Context ctx) {
    ctx.status(200).contentType(exposition.contentType()).result(exposition.scrape());
  }
}

package io.baton.node.http;

import com.codahale.metrics.MetricRegistry;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.dropwizard.DropwizardExports;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;

/**
 * {@code GET /metrics}: the Dropwizard registry in Prometheus text format, names as registered with
 * every character Prometheus does not allow replaced ({@code baton.runs.started} becomes {@code
 * baton_runs_started_total}).
 */
final class MetricsRoutes implements Routes {
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

  MetricsRoutes(MetricRegistry metrics) {
    registry.register(new DropwizardExports(metrics));
  }

  @Override
  public void addTo(RoutesConfig routes) {
    routes.get("/metrics", this::scrape);
  }

  private void scrape(Context ctx) throws Exception {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    writer.write(text, registry.scrape());
    ctx.status(200).contentType(writer.getContentType()).result(text.toByteArray());
  }
}

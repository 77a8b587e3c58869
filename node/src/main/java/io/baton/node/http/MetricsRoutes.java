package io.baton.node.http;

import com.codahale.metrics.Metric;
import com.codahale.metrics.MetricFilter;
import com.codahale.metrics.MetricRegistry;
import io.javalin.http.Context;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.dropwizard.DropwizardExports;
import io.prometheus.metrics.model.snapshots.PrometheusNaming;
import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /metrics}: the Dropwizard registry in Prometheus text format, names as registered with
 * every character Prometheus does not allow replaced ({@code baton.runs.started} becomes {@code
 * baton_runs_started_total}). Two names that become the same (flows {@code ship-order} and {@code
 * ship_order}) would make the whole scrape fail, so only the first in name order is exported and
 * the other is logged once.
 */
final class MetricsRoutes implements Routes {
  private static final Logger log = LoggerFactory.getLogger(MetricsRoutes.class);

  private final MetricRegistry metrics;
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
  private final Set<String> reported = ConcurrentHashMap.newKeySet();

  MetricsRoutes(MetricRegistry metrics) {
    this.metrics = metrics;
  }

  @Override
  public void addTo(ApiRouter routes) {
    routes
        .get("/metrics", this::scrape)
        .permission(Permission.METRICS_READ)
        .summary("Metrics in Prometheus text format")
        .produces("text/plain")
        .responds(200, "the metrics");
  }

  private void scrape(Context ctx) throws Exception {
    DropwizardExports exports = new DropwizardExports(metrics, new FirstOfEachName());
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    writer.write(text, exports.collect());
    ctx.status(200).contentType(writer.getContentType()).result(text.toByteArray());
  }

  /** Admits one Dropwizard name per Prometheus name, the first in name order, for one scrape. */
  private final class FirstOfEachName implements MetricFilter {
    private final Map<String, String> exported = new HashMap<>();

    FirstOfEachName() {
      for (String name : metrics.getNames()) {
        exported.putIfAbsent(prometheusName(name), name);
      }
    }

    @Override
    public boolean matches(String name, Metric metric) {
      String first = exported.get(prometheusName(name));
      if (first == null || first.equals(name)) {
        return true;
      }
      if (reported.add(name)) {
        log.warn("metric {} is not exported: its Prometheus name is taken by {}", name, first);
      }
      return false;
    }

    /** The name the text format writes: dots and dashes alike become underscores. */
    private static String prometheusName(String dropwizardName) {
      return PrometheusNaming.prometheusName(PrometheusNaming.sanitizeMetricName(dropwizardName));
    }
  }
}

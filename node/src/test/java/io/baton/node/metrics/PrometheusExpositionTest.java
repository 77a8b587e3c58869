package io.baton.node.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Meter;
import com.codahale.metrics.Timer;
import io.baton.engine.EngineMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusExpositionTest {
  private final NodeMetricRegistry registry = new NodeMetricRegistry();
  private final PrometheusExposition exposition = new PrometheusExposition(registry);

  private PrometheusText scrape() {
    PrometheusText text =
        PrometheusText.parse(new String(exposition.scrape(), StandardCharsets.UTF_8));
    assertThat(text.problems()).isEmpty();
    return text;
  }

  @Test
  void labels_in_a_name_become_prometheus_labels_and_the_unlabelled_total_is_left_out() {
    registry.counter(EngineMetrics.RUNS_FINISHED).inc(3);
    registry.counter(EngineMetrics.labelled("baton.runs.finished", "flow", "a", "status", "ok"));
    registry
        .counter(EngineMetrics.labelled("baton.runs.finished", "flow", "b,c=d}", "status", "ok"))
        .inc(2);

    PrometheusText text = scrape();

    assertThat(text.types()).containsEntry("baton_runs_finished_total", "counter");
    assertThat(text.value("baton_runs_finished_total", Map.of("flow", "a", "status", "ok")))
        .isEqualTo(0);
    assertThat(text.value("baton_runs_finished_total", Map.of("flow", "b,c=d}", "status", "ok")))
        .isEqualTo(2);
    assertThat(text.samples())
        .noneMatch(s -> s.labels().isEmpty() && s.name().startsWith("baton_runs"));
  }

  @Test
  void any_dropwizard_name_is_exported_by_its_type_whoever_registered_it() {
    registry.counter("baton.recovery.claimed-runs").inc(4);
    registry.gauge("baton.rebalance.moves.pending", () -> () -> 7);
    registry.gauge("baton.rebalance.active", () -> () -> true);
    registry.gauge("baton.rebalance.name", () -> () -> "text is not a number");
    Meter meter = registry.meter("baton.recovery.pass");
    meter.mark(5);
    registry.timer("pool.ConnectionWait").update(Duration.ofMillis(3));

    PrometheusText text = scrape();

    assertThat(text.value("baton_recovery_claimed_runs_total", Map.of())).isEqualTo(4);
    assertThat(text.value("baton_rebalance_moves_pending", Map.of())).isEqualTo(7);
    assertThat(text.value("baton_rebalance_active", Map.of())).isEqualTo(1);
    assertThat(text.types()).doesNotContainKey("baton_rebalance_name");
    assertThat(text.value("baton_recovery_pass_total", Map.of())).isEqualTo(5);
    assertThat(text.types()).containsEntry("pool_connection_wait_seconds", "histogram");
  }

  @Test
  void a_timer_is_a_histogram_in_seconds_that_sums_across_nodes() {
    Timer timer =
        registry.timer(
            EngineMetrics.labelled("baton.step.duration", "flow", "f", "capability", "http"));
    timer.update(Duration.ofMillis(2));
    timer.update(Duration.ofMillis(200));
    timer.update(Duration.ofSeconds(100));

    PrometheusText text = scrape();

    Map<String, String> series = Map.of("flow", "f", "capability", "http");
    assertThat(text.types()).containsEntry("baton_step_duration_seconds", "histogram");
    assertThat(text.value("baton_step_duration_seconds_bucket", with(series, "le", "0.0025")))
        .isEqualTo(1);
    assertThat(text.value("baton_step_duration_seconds_bucket", with(series, "le", "0.25")))
        .isEqualTo(2);
    assertThat(text.value("baton_step_duration_seconds_bucket", with(series, "le", "+Inf")))
        .isEqualTo(3);
    assertThat(text.value("baton_step_duration_seconds_sum", series)).isEqualTo(100.202);
  }

  @Test
  void a_histogram_has_unitless_buckets() {
    registry.histogram("baton.journal.batch.size").update(30);

    PrometheusText text = scrape();

    assertThat(text.value("baton_journal_batch_size_bucket", Map.of("le", "25"))).isEqualTo(0);
    assertThat(text.value("baton_journal_batch_size_bucket", Map.of("le", "50"))).isEqualTo(1);
  }

  @Test
  void names_that_collide_keep_the_first_and_the_scrape_stays_valid() {
    registry.counter("baton.x.same-name").inc();
    registry.counter("baton.x.same_name").inc(2);
    registry.gauge("baton.x.same-name.total", () -> () -> 9); // would be a gauge ending in _total
    registry.timer("baton.y");
    registry.gauge("baton.y.seconds.count", () -> () -> 1); // a sample of the timer's histogram
    registry.register("baton.z", new Timer()); // not bucketed: a summary
    registry.counter("jvm.memory.used.bytes"); // taken by the JVM series

    PrometheusText text = scrape();

    assertThat(text.value("baton_x_same_name_total", Map.of())).isEqualTo(1);
    assertThat(text.types()).containsEntry("baton_y_seconds", "histogram");
    assertThat(text.types()).doesNotContainKey("baton_y_seconds_count");
    assertThat(text.types()).containsEntry("baton_z_seconds", "summary");
    assertThat(text.types()).containsEntry("jvm_memory_used_bytes", "gauge");
  }

  @Test
  void the_jvm_series_have_their_standard_names() {
    PrometheusText text = scrape();

    assertThat(text.types())
        .containsKeys("jvm_memory_used_bytes", "jvm_threads_current", "jvm_gc_collection_seconds");
    assertThat(text.samples())
        .anyMatch(
            s -> s.name().equals("jvm_memory_used_bytes") && "heap".equals(s.labels().get("area")));
  }

  private static Map<String, String> with(Map<String, String> labels, String name, String value) {
    Map<String, String> all = new HashMap<>(labels);
    all.put(name, value);
    return all;
  }
}

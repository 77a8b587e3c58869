package io.baton.node.chaos;

import io.baton.node.metrics.PrometheusText;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the fenced-out count of every node process from its {@code /metrics}: every second, and on
 * demand just before the harness kills or stops a process (a killed process's counters die with
 * it). At the end each process's last count is set against the fenced-out warnings in its log.
 */
final class FenceWatch implements AutoCloseable {
  static final String METRIC = "baton_journal_fenced_out_total";
  static final String LOG_LINE = "was fenced out of run";

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

  private final ChaosCluster cluster;
  private final Map<String, Long> counted = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

  FenceWatch(ChaosCluster cluster) {
    this.cluster = cluster;
  }

  void start() {
    var unused = timer.scheduleWithFixedDelay(this::scrapeAll, 1, 1, TimeUnit.SECONDS);
  }

  private void scrapeAll() {
    for (int i = 0; i < cluster.nodes(); i++) {
      scrape(i);
    }
  }

  /** Scrapes node {@code index}'s current process now; false when it did not answer. */
  boolean scrape(int index) {
    ChaosCluster.Incarnation node = cluster.incarnation(index);
    if (!node.process().isAlive()) {
      return false;
    }
    try {
      HttpResponse<String> response =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(cluster.api(index) + "/metrics"))
                  .timeout(Duration.ofSeconds(2))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        return false;
      }
      double value = PrometheusText.parse(response.body()).value(METRIC, Map.of());
      counted.merge(node.name(), Double.isNaN(value) ? 0 : (long) value, Math::max);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (Exception notAnswering) {
      return false;
    }
  }

  /** Every process's last count and the warnings its log holds. */
  List<ChaosEvidence.FenceCount> counts() {
    return cluster.incarnations().stream()
        .map(
            node ->
                new ChaosEvidence.FenceCount(
                    node.name(),
                    counted.getOrDefault(node.name(), -1L),
                    node.process().output().lines().filter(l -> l.contains(LOG_LINE)).count()))
        .toList();
  }

  @Override
  public void close() throws InterruptedException {
    timer.shutdownNow();
    timer.awaitTermination(10, TimeUnit.SECONDS);
  }
}

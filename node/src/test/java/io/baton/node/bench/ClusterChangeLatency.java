package io.baton.node.bench;

import io.baton.journal.JournalCodec;
import io.baton.journal.RunStatus;
import io.baton.node.bench.DashboardBenchmark.Figure;
import io.baton.node.http.HeadlessChromium;
import io.baton.store.RunRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;

/**
 * How long a run's state change takes to show on the dashboard's runs page open on one node (the
 * viewer) when it was committed on another node of the cluster, and when on the viewer itself. For
 * each change: from the moment the run's SUCCEEDED was stamped (its {@code updatedAt}, taken by the
 * committing node just before the journal append commits) to the moment its row showed SUCCEEDED in
 * the page ({@code Date.now()}). The nodes and the browser run on one machine, so both clocks are
 * the same clock. Changes are spread out as a person's cluster makes them: each run finishes before
 * the next is submitted.
 */
final class ClusterChangeLatency {
  static final String FLOW_NAME = "dashboard-quick";
  private static final Duration PATIENCE = Duration.ofMinutes(1);

  /** Records when each row first shows SUCCEEDED, in the page's clock. */
  private static final String OBSERVE =
      """
      window.shownAt = {};
      new MutationObserver(() => {
        document.querySelectorAll('#runs-body tr[data-status=SUCCEEDED]').forEach((row) => {
          if (!window.shownAt[row.id]) window.shownAt[row.id] = Date.now();
        });
      }).observe(document.getElementById('runs-body'), {childList: true, subtree: true});
      """;

  private ClusterChangeLatency() {}

  /**
   * Opens the runs page of {@code viewer} (served at {@code viewerBase}) and commits {@code
   * changes} run completions on {@code other} and as many on {@code viewer}, alternately.
   */
  static Map<String, Figure> measure(
      HeadlessChromium chromium,
      String viewerBase,
      BenchCluster.Node viewer,
      BenchCluster.Node other,
      int changes)
      throws InterruptedException {
    other
        .node()
        .orchestrator()
        .applyFlow(
            "name: " + FLOW_NAME + "\nsteps:\n  - name: only\n    capability: noop\n",
            FLOW_NAME + ".yaml");
    WebDriver driver = chromium.driver();
    driver.get(viewerBase + "/#/runs?flow=" + FLOW_NAME);
    chromium.await(By.id("runs-body"));
    chromium.waiting().until(d -> d.findElement(By.id("live")).getText().equals("live"));
    ((JavascriptExecutor) driver).executeScript(OBSERVE);
    Map<UUID, Long> committedOnOther = new LinkedHashMap<>();
    Map<UUID, Long> committedOnViewer = new LinkedHashMap<>();
    for (int i = 0; i < changes; i++) {
      complete(other, committedOnOther);
      complete(viewer, committedOnViewer);
    }
    Map<String, Figure> figures = new LinkedHashMap<>();
    figures.put(
        "change committed on "
            + other.node().nodeId()
            + ", shown on a page of "
            + viewer.node().nodeId(),
        Figure.of(shown(chromium, committedOnOther)));
    figures.put(
        "change committed on " + viewer.node().nodeId() + ", shown on its own page",
        Figure.of(shown(chromium, committedOnViewer)));
    return figures;
  }

  /** Submits a run on {@code node}, waits until it succeeded; keeps when that was stamped. */
  private static void complete(BenchCluster.Node node, Map<UUID, Long> committed)
      throws InterruptedException {
    UUID runId =
        node.node()
            .orchestrator()
            .submit(FLOW_NAME, JournalCodec.mapper().createObjectNode(), null)
            .run()
            .runId();
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    RunRecord run = node.node().orchestrator().find(runId);
    while (run.status() != RunStatus.SUCCEEDED) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("run " + runId + " is still " + run.status());
      }
      Thread.sleep(5);
      run = node.node().orchestrator().find(runId);
    }
    committed.put(runId, run.updatedAt().toEpochMilli());
  }

  /** Milliseconds from each run's commit to its row showing SUCCEEDED. */
  private static List<Double> shown(HeadlessChromium chromium, Map<UUID, Long> committed) {
    List<Double> latencies = new ArrayList<>();
    committed.forEach(
        (runId, at) -> {
          Object shownAt =
              chromium
                  .waiting()
                  .until(
                      d ->
                          ((JavascriptExecutor) d)
                              .executeScript("return window.shownAt['run-" + runId + "'] || null"));
          latencies.add(((Number) shownAt).doubleValue() - at);
        });
    return latencies;
  }
}

package io.baton.node.bench;

import com.codahale.metrics.MetricRegistry;
import io.baton.capability.Capability;
import io.baton.capability.StepOutcome;
import io.baton.journal.JournalCodec;
import io.baton.journal.RunStatus;
import io.baton.node.http.HeadlessChromium;
import io.baton.node.http.HttpApi;
import io.baton.node.http.HttpSettings;
import io.baton.recovery.RecoveryConfig;
import io.baton.retention.HousekeepingConfig;
import io.baton.store.postgres.bench.RunTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The dashboard over a big installation (issue 12), in headless Chromium against a node on
 * PostgreSQL and etcd: {@code runs} root runs in the {@code runs} table (written in SQL, shaped as
 * {@link RunTable} describes) and one run of {@code entries} journal entries (a {@code repeat} of a
 * noop, run by the node). Each figure is measured {@code repetitions} times in the browser's own
 * clock ({@code performance.now()}):
 *
 * <ul>
 *   <li>the runs page loaded afresh until its first page of rows is shown (and the counts per
 *       status, a separate call);
 *   <li>on that page, a filter by status and flow applied (as the Apply button does) until the
 *       filtered rows are shown;
 *   <li>the next page by cursor, clicked again and again (each one deeper), unfiltered and
 *       filtered;
 *   <li>the run of {@code entries} entries opened afresh until its header and the first screen of
 *       its journal timeline are shown;
 *   <li>the memory of that tab, opened in a new tab with the others closed: its renderer process's
 *       PSS and RSS ({@link TabMemory}) and its JavaScript heap;
 *   <li>with a second node started in the cluster and the runs page open on it, the time from a
 *       run's completion committed on the first node (and on the second) to its row showing it
 *       ({@link ClusterChangeLatency}), at least 20 changes each.
 * </ul>
 *
 * Prints p50, p95 and max of each, and the machine's load average before and after. Asserts nothing
 * about time.
 */
final class DashboardBenchmark {
  static final String FLOW_NAME = "dashboard-long";
  static final String FILTER_FLOW = "flow-3";
  static final int PAGE = 50;

  private static final Duration PATIENCE = Duration.ofMinutes(1);

  /** Marks the moments a freshly loaded page first shows what is measured, in its own clock. */
  private static final String MARKS =
      """
      window.__marks = {};
      new MutationObserver(() => {
        const m = window.__marks;
        const now = performance.now();
        if (!m.rows && document.querySelectorAll('#runs-body tr.run-row').length >= %d) m.rows = now;
        if (!m.counts && document.querySelectorAll('#counts button').length > 0) m.counts = now;
        if (!m.run && document.getElementById('run-id')) m.run = now;
        if (!m.journal && document.querySelectorAll('#journal tbody tr[data-seq]').length > 0) m.journal = now;
      }).observe(document, {childList: true, subtree: true});
      """
          .formatted(PAGE);

  /** A fresh load slower than this prints what the page waited for. */
  private static final double SLOW_MILLIS = 2000;

  /** The page's navigation and requests that started or lasted late, with their timing. */
  private static final String SLOW_ENTRIES =
      """
      return performance.getEntries()
          .filter((e) => e.duration > 500 || e.startTime > 1000)
          .map((e) => e.entryType + ' ' + e.name.replace(location.origin, '') + ' at '
              + Math.round(e.startTime) + ' took ' + Math.round(e.duration))
          .join('; ');
      """;

  private DashboardBenchmark() {}

  /** p50, p95 and max of one measurement, in milliseconds. */
  record Figure(int samples, double p50, double p95, double max) {
    static Figure of(List<Double> millis) {
      double[] sorted = millis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      if (sorted.length == 0) {
        return new Figure(0, 0, 0, 0);
      }
      return new Figure(
          sorted.length, rank(sorted, 0.50), rank(sorted, 0.95), sorted[sorted.length - 1]);
    }

    private static double rank(double[] sorted, double quantile) {
      int index = (int) Math.ceil(sorted.length * quantile) - 1;
      return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT, "p50 %.0f ms, p95 %.0f ms, max %.0f ms (%d)", p50, p95, max, samples);
    }
  }

  /**
   * What was measured, by name, in the order printed; the long run's size; and the tab's memory
   * with the long run open: its JavaScript heap and its renderer process.
   */
  record Figures(
      Map<String, Figure> figures,
      long journalEntries,
      double heapMegabytes,
      TabMemory.Reading tabMemory) {}

  /**
   * @param runs root runs written into the table; at least 20,000, so that the filtered list has
   *     more than one page (one run in 200 is FAILED and of {@link #FILTER_FLOW})
   * @param entries journal entries the long run grows to (at least)
   * @param repetitions samples of each figure
   */
  static Figures run(int runs, int entries, int repetitions) throws Exception {
    if (runs < 20_000) {
      throw new IllegalArgumentException(
          "baton.bench.dashboardRuns must be at least 20000 (a filtered list of two pages), got "
              + runs);
    }
    System.out.printf(
        Locale.ROOT,
        "dashboard: %,d runs, one run of %,d journal entries, %d repetitions; load average %s%n",
        runs,
        entries,
        repetitions,
        loadAverage());
    HousekeepingConfig keepEverything =
        new HousekeepingConfig(
            HousekeepingConfig.DEFAULT_ARCHIVE_BATCH_SIZE,
            HousekeepingConfig.DEFAULT_ARCHIVE_PAUSE,
            Duration.ZERO,
            HousekeepingConfig.DEFAULT_FINISHED_RUNS,
            HousekeepingConfig.DEFAULT_RETENTION_BATCH_SIZE,
            HousekeepingConfig.DEFAULT_RETENTION_PAUSE,
            Duration.ZERO);
    try (BenchCluster cluster = new BenchCluster(keepEverything, (nodeId, io) -> io)) {
      // The table's runs name nodes and flows that do not exist: with recovery on, this node
      // would try to adopt every RUNNING and PENDING one of them.
      BenchCluster.Node node =
          cluster.start(
              "bench-dashboard",
              Duration.ofSeconds(10),
              List.of(tick()),
              config -> config,
              RecoveryConfig.defaults().withEnabled(false));
      UUID longRun = longRun(cluster, node, entries);
      long filled = System.nanoTime();
      try (Connection connection = cluster.database.connect()) {
        RunTable.fill(connection, runs);
      }
      System.out.printf(
          Locale.ROOT,
          "dashboard: %,d runs written in %.0f s%n",
          runs,
          (System.nanoTime() - filled) / 1e9);
      long journalEntries =
          cluster.row("SELECT count(*) FROM journal WHERE root_run_id = ?", longRun)[0];
      System.out.printf(
          Locale.ROOT, "dashboard: run %s has %,d journal entries%n", longRun, journalEntries);
      BenchCluster.Node viewer =
          cluster.start(
              "bench-dashboard-b",
              Duration.ofSeconds(10),
              List.of(tick()),
              config -> config,
              RecoveryConfig.defaults().withEnabled(false));
      try (HttpApi api = serve(node);
          HttpApi viewerApi = serve(viewer);
          HeadlessChromium chromium = HeadlessChromium.start(PATIENCE)) {
        Browser browser = new Browser(chromium, api.uri().toString());
        Figures figures = measure(browser, longRun, journalEntries, repetitions);
        figures
            .figures()
            .forEach((name, figure) -> System.out.println("  " + name + ": " + figure));
        printMemory(figures);
        Map<String, Figure> live =
            ClusterChangeLatency.measure(
                chromium, viewerApi.uri().toString(), viewer, node, Math.max(20, repetitions));
        live.forEach((name, figure) -> System.out.println("  " + name + ": " + figure));
        figures.figures().putAll(live);
        System.out.printf(Locale.ROOT, "dashboard: load average after %s%n", loadAverage());
        return figures;
      }
    }
  }

  private static void printMemory(Figures figures) {
    TabMemory.Reading memory = figures.tabMemory();
    System.out.printf(
        Locale.ROOT,
        "  tab with the long run open: renderer process %s; JavaScript heap %.1f MB%n"
            + "  (every renderer of the browser then: %s)%n",
        memory.tab() == null ? "not found" : memory.tab(),
        figures.heapMegabytes(),
        memory.renderers());
  }

  private static Figures measure(
      Browser browser, UUID longRun, long journalEntries, int repetitions) throws IOException {
    Map<String, List<Double>> samples = new LinkedHashMap<>();
    for (String name :
        List.of(
            "runs page loaded, first page of 50 shown",
            "runs page loaded, counts per status shown",
            "filter status FAILED + flow applied, page shown",
            "next page by cursor (all runs)",
            "next page by cursor (status FAILED + flow)",
            "run of " + journalEntries + " entries opened, header shown",
            "run of " + journalEntries + " entries opened, first journal screen shown")) {
      samples.put(name, new ArrayList<>());
    }
    List<List<Double>> lists = new ArrayList<>(samples.values());
    String filtered = "#/runs?status=FAILED&flow=" + FILTER_FLOW;
    // one untimed round: the JVM's and the database's first calls say nothing about the dashboard
    for (int round = -1; round < repetitions; round++) {
      boolean timed = round >= 0;
      Map<String, Double> marks = browser.load("#/runs", "rows", "counts");
      add(timed, lists.get(0), marks.get("rows"));
      add(timed, lists.get(1), marks.get("counts"));
      add(timed, lists.get(2), browser.applyFilter(filtered));
      browser.load(filtered, "rows");
      add(timed, lists.get(4), browser.nextPage());
      Map<String, Double> run = browser.load("#/run/" + longRun, "run", "journal");
      add(timed, lists.get(5), run.get("run"));
      add(timed, lists.get(6), run.get("journal"));
    }
    // successive next pages, each one deeper than the last
    browser.load("#/runs", "rows");
    for (int i = -1; i < repetitions; i++) {
      add(i >= 0, lists.get(3), browser.nextPage());
    }
    // the tab as a person opens it: a new one, the others closed, the long run loaded in it
    browser.freshTab();
    browser.load("#/run/" + longRun, "run", "journal");
    TabMemory.Reading memory = browser.tabMemory();
    double heap = browser.heapMegabytes();
    Map<String, Figure> figures = new LinkedHashMap<>();
    samples.forEach((name, millis) -> figures.put(name, Figure.of(millis)));
    return new Figures(figures, journalEntries, heap, memory);
  }

  private static void add(boolean timed, List<Double> into, double millis) {
    if (timed) {
      into.add(millis);
    }
  }

  /** A run that grows to {@code entries} journal entries: a repeat of a noop that never ends. */
  private static UUID longRun(BenchCluster cluster, BenchCluster.Node node, int entries)
      throws Exception {
    node.node()
        .orchestrator()
        .applyFlow(
            "name: "
                + FLOW_NAME
                + "\nsteps:\n  - name: loop\n    capability: tick\n"
                + "    repeat: {until: \"{{ steps.loop.output.done }}\", max: "
                + Integer.MAX_VALUE
                + "}\n",
            FLOW_NAME + ".yaml");
    UUID run =
        node.node()
            .orchestrator()
            .submit(FLOW_NAME, JournalCodec.mapper().createObjectNode(), null)
            .run()
            .runId();
    long started = System.nanoTime();
    long seq = 0;
    while (seq < entries) {
      Thread.sleep(500);
      seq = cluster.row("SELECT latest_seq FROM runs WHERE id = ?", run)[0];
      Set<RunStatus> ended = EnumSet.of(RunStatus.FAILED, RunStatus.CANCELLED);
      if (ended.contains(node.node().orchestrator().find(run).status())) {
        throw new IllegalStateException("the long run ended at seq " + seq);
      }
    }
    node.node().orchestrator().cancel(run, "dashboard benchmark");
    System.out.printf(
        Locale.ROOT,
        "dashboard: the long run reached seq %,d in %.0f s and was cancelled%n",
        seq,
        (System.nanoTime() - started) / 1e9);
    return run;
  }

  private static Capability tick() {
    return BenchCluster.capability(
        "tick",
        invocation ->
            CompletableFuture.completedFuture(
                StepOutcome.completed(
                    JournalCodec.mapper().createObjectNode().put("done", false))));
  }

  private static HttpApi serve(BenchCluster.Node node) {
    return HttpApi.builder()
        .node(node.node())
        .metrics(new MetricRegistry())
        .readiness(List::of)
        .settings(HttpSettings.defaults().withPort(0))
        .clock(Clock.systemUTC())
        .start();
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2] + " (1, 5, 15 min)";
    } catch (Exception e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  /** The dashboard in the browser, timed in the page's own clock. */
  private static final class Browser {
    private final HeadlessChromium chromium;
    private final WebDriver driver;
    private final String base;

    Browser(HeadlessChromium chromium, String base) {
      this.chromium = chromium;
      this.driver = chromium.driver();
      this.base = base;
      markNewDocuments();
      driver.manage().timeouts().scriptTimeout(PATIENCE);
    }

    private void markNewDocuments() {
      ((ChromeDriver) driver)
          .executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", MARKS));
    }

    /** Opens a new tab and closes the others: no page of theirs stays in any renderer. */
    void freshTab() {
      String old = driver.getWindowHandle();
      String fresh = driver.switchTo().newWindow(WindowType.TAB).getWindowHandle();
      driver.switchTo().window(old).close();
      driver.switchTo().window(fresh);
      markNewDocuments();
    }

    /** The memory of the renderer process that draws this tab (busy for half a second). */
    TabMemory.Reading tabMemory() throws IOException {
      return TabMemory.read(
          chromium.profile(),
          () -> script("const end = performance.now() + 500; while (performance.now() < end) {}"));
    }

    /**
     * Loads the dashboard afresh at {@code hash} and waits for each of {@code marks}: the
     * milliseconds from the navigation's start to each.
     */
    Map<String, Double> load(String hash, String... marks) {
      // The page left closes its run stream itself (pagehide): the pages the browser keeps in its
      // back/forward cache hold none of its six connections to the node.
      driver.get("about:blank");
      driver.get(base + "/" + hash);
      Map<String, Double> times = new LinkedHashMap<>();
      for (String mark : marks) {
        Object at =
            chromium
                .waiting()
                .until(
                    d ->
                        script(
                            "return (window.__marks && window.__marks['" + mark + "']) || null"));
        times.put(mark, ((Number) at).doubleValue());
      }
      if (times.values().stream().anyMatch(millis -> millis > SLOW_MILLIS)) {
        System.out.println("  slow load of " + hash + " " + times + ": " + script(SLOW_ENTRIES));
      }
      return times;
    }

    /** Goes to the filtered {@code hash} as the Apply button does; until its page is shown. */
    double applyFilter(String hash) {
      return timed(
          "location.hash = '" + hash + "';",
          """
          const rows = [...document.querySelectorAll('#runs-body tr.run-row')];
          return rows.length > 0
              && rows.every((r) => r.dataset.status === 'FAILED' && r.children[1].textContent === '%s');
          """
              .formatted(FILTER_FLOW));
    }

    /** Clicks Next page; until a page of other runs is shown. */
    double nextPage() {
      return timed(
          """
          window.__first = document.querySelector('#runs-body tr.run-row').id;
          document.getElementById('next-page').click();
          """,
          """
          const rows = document.querySelectorAll('#runs-body tr.run-row');
          return rows.length > 0 && rows[0].id !== window.__first;
          """);
    }

    /**
     * Runs {@code action} in the page and the milliseconds until {@code shown} (a function body
     * returning whether the result is on screen) holds, checked on every change to the page.
     */
    double timed(String action, String shown) {
      String script =
          """
          const done = arguments[arguments.length - 1];
          const shown = () => { %s };
          const start = performance.now();
          const observer = new MutationObserver(() => {
            if (shown()) { observer.disconnect(); done(performance.now() - start); }
          });
          observer.observe(document, {childList: true, subtree: true, attributes: true});
          %s
          """
              .formatted(shown, action);
      return ((Number) ((JavascriptExecutor) driver).executeAsyncScript(script)).doubleValue();
    }

    double heapMegabytes() {
      Object bytes = script("return performance.memory ? performance.memory.usedJSHeapSize : -1");
      return ((Number) bytes).doubleValue() / 1e6;
    }

    private Object script(String code) {
      return ((JavascriptExecutor) driver).executeScript(code);
    }
  }
}

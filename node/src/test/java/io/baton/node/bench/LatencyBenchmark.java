package io.baton.node.bench;

import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import com.sun.management.OperatingSystemMXBean;
import io.baton.engine.EngineMetrics;
import io.baton.engine.RunEvent;
import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ClaimReason;
import io.baton.journal.JournalCodec;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunCompleted;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.journal.StepCompleted;
import io.baton.journal.StepStarted;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.Stores;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Latency of one run at a time on an idle node, PostgreSQL and etcd local: the bare fenced append
 * (one client, one entry) measured in the same sitting, then 3-step noop runs submitted one after
 * the other. Step-to-step and created-to-completed come from the journal's own timestamps (the
 * engine's clock); submit-to-done is what the client sees. Then the maximum throughput of the same
 * flow, and latency with runs submitted at a steady 10 %, 50 % and 90 % of it, so that the cost of
 * batching under load shows as a curve. Prints percentiles; asserts nothing.
 */
final class LatencyBenchmark {
  static final String FLOW =
      """
      name: quick
      steps:
        - name: one
          capability: noop
        - name: two
          capability: noop
          needs: [one]
        - name: three
          capability: noop
          needs: [two]
      """;

  private LatencyBenchmark() {}

  /** What one sitting measured: one run at a time, then each load level. */
  record Figures(Percentiles idleStepToStep, double maxRunsPerSecond, List<Level> levels) {}

  /** Latency at a fraction of the measured maximum throughput, runs submitted at a steady rate. */
  record Level(
      double share,
      double runsPerSecond,
      Percentiles stepToStep,
      Percentiles createdToCompleted,
      String load) {
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "  at %3.0f%% (%6.0f runs/s): step to step %s%n                          created to completed %s%n"
              + "                          %s",
          share * 100,
          runsPerSecond,
          stepToStep,
          createdToCompleted,
          load);
    }
  }

  /**
   * What a stretch of the benchmark cost: appends per committed batch and batches per second (the
   * group committer's metrics), the machine's CPU busy (all processes, from /proc/stat: the node,
   * PostgreSQL and etcd share two cores) and the node's JVM alone. Read beside a level's latency: a
   * level whose batches stay small pays more per run, so it can be near saturation at half the
   * batched maximum.
   */
  private static final class LoadMeter {
    private final BenchCluster.Node node;
    private final long startNanos = System.nanoTime();
    private final long batches;
    private final long appends;
    private final long[] cpu;
    private final long processCpu;

    LoadMeter(BenchCluster.Node node) {
      this.node = node;
      this.batches = batches(node);
      this.appends = appends(node);
      this.cpu = machineCpu();
      this.processCpu = processCpuNanos();
    }

    private static long batches(BenchCluster.Node node) {
      return node.metrics().histogram(EngineMetrics.JOURNAL_BATCH_SIZE).getCount();
    }

    private static long appends(BenchCluster.Node node) {
      return node.metrics().timer(EngineMetrics.JOURNAL_APPEND).getCount();
    }

    /** Busy and total jiffies of all CPUs, or zeros where /proc/stat cannot be read. */
    private static long[] machineCpu() {
      try {
        String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long total = 0;
        for (int i = 1; i < fields.length; i++) {
          total += Long.parseLong(fields[i]);
        }
        long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
        return new long[] {total - idle, total};
      } catch (IOException | RuntimeException e) {
        return new long[] {0, 0};
      }
    }

    private static long processCpuNanos() {
      return ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
          ? os.getProcessCpuTime()
          : 0;
    }

    String measured() {
      double seconds = (System.nanoTime() - startNanos) / 1e9;
      long batchCount = batches(node) - batches;
      long appendCount = appends(node) - appends;
      long[] now = machineCpu();
      double busy = now[1] == cpu[1] ? 0 : 100.0 * (now[0] - cpu[0]) / (now[1] - cpu[1]);
      int cores = Runtime.getRuntime().availableProcessors();
      double jvm = 100.0 * (processCpuNanos() - processCpu) / 1e9 / seconds / cores;
      return String.format(
          Locale.ROOT,
          "%.1f engine appends a batch, %.0f batches/s; CPU busy %.0f %% (all processes), node JVM %.0f %%"
              + " (of %d cores)",
          batchCount == 0 ? 0 : (double) appendCount / batchCount,
          batchCount / seconds,
          busy,
          jvm,
          cores);
    }
  }

  /** Runs the benchmark and prints it. */
  static Figures run(int runs, Duration perLevel) throws Exception {
    try (BenchCluster cluster = new BenchCluster()) {
      BenchCluster.Node node =
          cluster.start(
              "bench-latency",
              Duration.ofSeconds(10),
              List.of(),
              c -> c,
              RecoveryConfig.defaults());
      System.out.println(
          "bare fenced append, one entry, one client: " + bareAppends(node.stores(), runs * 2));
      node.node().orchestrator().applyFlow(FLOW, "quick.yaml");
      Completions completions = new Completions(node);
      Percentiles idle = oneAtATime(node, completions, runs);
      LoadMeter atMax = new LoadMeter(node);
      double max = maxThroughput(node, completions, perLevel);
      System.out.printf(
          Locale.ROOT,
          "maximum throughput, 3 noop steps, 1,000 runs in flight: %.0f runs/s (%.0f step completions/s)%n"
              + "  %s%n",
          max,
          max * 3,
          atMax.measured());
      System.out.println("latency under a steady load (runs submitted at a fixed rate):");
      List<Level> levels = new ArrayList<>();
      for (double share : levels()) {
        Level level = atRate(node, completions, share, max * share, perLevel);
        System.out.println(level);
        levels.add(level);
      }
      return new Figures(idle, max, levels);
    }
  }

  /**
   * The load levels, as fractions of the measured maximum: {@code -Dbaton.bench.levels} (comma
   * separated, e.g. {@code 0.1} alone to profile one level), 0.1, 0.5 and 0.9 by default.
   */
  private static double[] levels() {
    String levels = System.getProperty("baton.bench.levels", "");
    if (levels.isBlank()) {
      return new double[] {0.1, 0.5, 0.9};
    }
    return Arrays.stream(levels.split(","))
        .mapToDouble(l -> Double.parseDouble(l.trim()))
        .toArray();
  }

  /** Completes a future per run when the run finishes, whoever waits for it. */
  private static final class Completions {
    private final Map<UUID, CompletableFuture<Void>> finished = new ConcurrentHashMap<>();

    Completions(BenchCluster.Node node) {
      node.node()
          .engine()
          .addListener(
              event -> {
                if (event instanceof RunEvent.StatusChanged changed
                    && changed.status().isTerminal()) {
                  future(changed.runId()).complete(null);
                }
              });
    }

    CompletableFuture<Void> future(UUID runId) {
      return finished.computeIfAbsent(runId, id -> new CompletableFuture<>());
    }

    void forget(UUID runId) {
      finished.remove(runId);
    }
  }

  private static CompletableFuture<UUID> submit(BenchCluster.Node node, Completions completions) {
    return node.node()
        .orchestrator()
        .submitAsync("quick", JournalCodec.mapper().createObjectNode(), null, null)
        .thenCompose(
            result -> {
              UUID runId = result.run().runId();
              return completions.future(runId).thenApply(done -> runId);
            });
  }

  private static Percentiles oneAtATime(BenchCluster.Node node, Completions completions, int runs)
      throws Exception {
    int warmup = Math.min(500, runs / 4);
    List<Long> stepToStep = new ArrayList<>();
    List<Long> createdToCompleted = new ArrayList<>();
    List<Long> firstStep = new ArrayList<>();
    List<Long> submitToDone = new ArrayList<>();
    for (int i = 0; i < warmup + runs; i++) {
      long started = System.nanoTime();
      UUID runId = submit(node, completions).get(30, TimeUnit.SECONDS);
      long took = System.nanoTime() - started;
      completions.forget(runId);
      RunStatus status = node.node().orchestrator().find(runId).status();
      if (status != RunStatus.SUCCEEDED) {
        throw new IllegalStateException("run " + runId + " ended " + status);
      }
      if (i < warmup) {
        continue;
      }
      submitToDone.add(took);
      timings(node.node().orchestrator().journal(runId), stepToStep, createdToCompleted, firstStep);
    }
    System.out.println(
        "runs one at a time, 3 noop steps, " + runs + " runs after " + warmup + " warm-up:");
    System.out.println("  step to step (journal)          " + Percentiles.of(stepToStep));
    System.out.println("  created to first step (journal) " + Percentiles.of(firstStep));
    System.out.println("  created to completed (journal)  " + Percentiles.of(createdToCompleted));
    System.out.println("  submit to done (client)         " + Percentiles.of(submitToDone));
    System.out.println(
        "  append, engine's round trip     "
            + timer(node.metrics().timer(EngineMetrics.JOURNAL_APPEND))
            + "  (submitted → back on the engine loop)");
    System.out.println(
        "  append, database batch          "
            + timer(node.metrics().timer(EngineMetrics.JOURNAL_APPEND + ".batch"))
            + "  (one appendAll call)");
    return Percentiles.of(stepToStep);
  }

  /** Runs per second with 1,000 runs kept in flight for {@code duration}, after a warm-up. */
  private static double maxThroughput(
      BenchCluster.Node node, Completions completions, Duration duration) throws Exception {
    int window = 1_000;
    Semaphore inFlight = new Semaphore(window);
    AtomicLong done = new AtomicLong();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    long warmupEnds = System.nanoTime() + duration.toNanos() / 2;
    long ends = warmupEnds + duration.toNanos();
    long countedFrom = -1;
    long counted = 0;
    while (true) {
      long now = System.nanoTime();
      if (countedFrom < 0 && now >= warmupEnds) {
        countedFrom = now;
        counted = done.get();
      }
      if (now >= ends) {
        break;
      }
      if (!inFlight.tryAcquire(10, TimeUnit.MILLISECONDS)) {
        continue;
      }
      submit(node, completions)
          .whenComplete(
              (runId, failure) -> {
                if (runId != null) {
                  completions.forget(runId);
                  done.incrementAndGet();
                } else {
                  failed.compareAndSet(null, failure);
                }
                inFlight.release();
              });
    }
    long finishedInWindow = done.get() - counted;
    double seconds = (System.nanoTime() - countedFrom) / 1e9;
    if (!inFlight.tryAcquire(window, 2, TimeUnit.MINUTES)) {
      throw new IllegalStateException("runs of the throughput measurement did not finish");
    }
    if (failed.get() != null) {
      throw new IllegalStateException("a run of the throughput measurement failed", failed.get());
    }
    return finishedInWindow / seconds;
  }

  /** Submits runs at {@code rate} per second for {@code duration}; latency from their journals. */
  private static Level atRate(
      BenchCluster.Node node, Completions completions, double share, double rate, Duration duration)
      throws Exception {
    List<CompletableFuture<UUID>> submitted = new ArrayList<>();
    LoadMeter meter = new LoadMeter(node);
    Instant began = Instant.now();
    long total = Math.max(10, (long) (rate * duration.toNanos() / 1e9));
    long started = System.nanoTime();
    long due = 0;
    while (due < total) {
      double elapsed = (double) (System.nanoTime() - started) / duration.toNanos();
      long owed = Math.min(total, (long) Math.ceil(elapsed * total));
      for (; due < owed; due++) {
        submitted.add(submit(node, completions));
      }
      LockSupport.parkNanos(200_000);
    }
    List<UUID> runIds = new ArrayList<>();
    for (CompletableFuture<UUID> run : submitted) {
      UUID runId = run.get(2, TimeUnit.MINUTES);
      completions.forget(runId);
      runIds.add(runId);
    }
    // the level's wall-clock window, to read a JFR recording of the whole benchmark for it alone
    String load = meter.measured() + "; from " + began + " to " + Instant.now();
    List<Long> stepToStep = new ArrayList<>();
    List<Long> createdToCompleted = new ArrayList<>();
    for (int from = 0; from < runIds.size(); from += 500) {
      Map<UUID, List<JournalEntry>> journals =
          node.stores()
              .journal()
              .readAll(runIds.subList(from, Math.min(runIds.size(), from + 500)));
      journals
          .values()
          .forEach(journal -> timings(journal, stepToStep, createdToCompleted, new ArrayList<>()));
    }
    return new Level(
        share,
        runIds.size() / (duration.toNanos() / 1e9),
        Percentiles.of(stepToStep),
        Percentiles.of(createdToCompleted),
        load);
  }

  private static String timer(Timer timer) {
    Snapshot snapshot = timer.getSnapshot();
    return String.format(
        Locale.ROOT,
        "p50 %.2f ms  p99 %.2f ms",
        snapshot.getMedian() / 1e6,
        snapshot.get99thPercentile() / 1e6);
  }

  /** Adds the run's step-to-step and created-to-completed times, in nanoseconds. */
  private static void timings(
      List<JournalEntry> journal,
      List<Long> stepToStep,
      List<Long> createdToCompleted,
      List<Long> firstStep) {
    Instant created = null;
    Instant previousStep = null;
    for (JournalEntry entry : journal) {
      if (entry.event() instanceof RunCreated) {
        created = entry.timestamp();
      } else if (entry.event() instanceof StepCompleted) {
        if (previousStep != null) {
          stepToStep.add(Duration.between(previousStep, entry.timestamp()).toNanos());
        } else if (created != null) {
          firstStep.add(Duration.between(created, entry.timestamp()).toNanos());
        }
        previousStep = entry.timestamp();
      } else if (entry.event() instanceof RunCompleted && created != null) {
        createdToCompleted.add(Duration.between(created, entry.timestamp()).toNanos());
      }
    }
  }

  /** One fenced append of one entry at a time, straight to the journal: what a step must pay. */
  private static Percentiles bareAppends(Stores stores, int count) {
    UUID root = UUID.randomUUID();
    long token = 1;
    Instant now = Instant.now();
    AppendResult created =
        stores
            .journal()
            .appendAll(
                List.of(
                    new AppendRequest(
                        root,
                        token,
                        List.of(
                            new JournalEntry(
                                root,
                                root,
                                1,
                                now,
                                new RunCreated("bare", "bare", null, null, null, null, null)),
                            new JournalEntry(
                                root,
                                root,
                                2,
                                now,
                                new RunClaimed("bench-bare", token, null, ClaimReason.SUBMIT))))))
            .get(0);
    if (!(created instanceof AppendResult.Appended)) {
      throw new IllegalStateException("could not create the bare run: " + created);
    }
    List<Long> took = new ArrayList<>();
    for (int seq = 3; seq < count + 3; seq++) {
      AppendRequest request =
          new AppendRequest(
              root,
              token,
              List.of(new JournalEntry(root, root, seq, Instant.now(), new StepStarted("s", seq))));
      long started = System.nanoTime();
      AppendResult result = stores.journal().appendAll(List.of(request)).get(0);
      took.add(System.nanoTime() - started);
      if (!(result instanceof AppendResult.Appended)) {
        throw new IllegalStateException("bare append failed: " + result);
      }
    }
    return Percentiles.of(took);
  }

  /** p50, p90, p99 and max of nanosecond samples, printed in milliseconds. */
  record Percentiles(int samples, double p50, double p90, double p99, double max) {
    static Percentiles of(List<Long> nanos) {
      List<Long> sorted = new ArrayList<>(nanos);
      Collections.sort(sorted);
      if (sorted.isEmpty()) {
        return new Percentiles(0, 0, 0, 0, 0);
      }
      return new Percentiles(
          sorted.size(),
          at(sorted, 0.50),
          at(sorted, 0.90),
          at(sorted, 0.99),
          sorted.get(sorted.size() - 1) / 1e6);
    }

    private static double at(List<Long> sorted, double quantile) {
      int index = (int) Math.ceil(quantile * sorted.size()) - 1;
      return sorted.get(Math.max(0, index)) / 1e6;
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "p50 %.2f ms  p90 %.2f ms  p99 %.2f ms  max %.2f ms  (%d samples)",
          p50,
          p90,
          p99,
          max,
          samples);
    }
  }
}

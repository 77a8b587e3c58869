package io.baton.lease.etcd.bench;

import io.baton.lease.AcquireResult;
import io.baton.lease.Subscription;
import io.baton.lease.etcd.EtcdLeaseConfig;
import io.baton.lease.etcd.EtcdLeaseManager;
import io.baton.lease.etcd.EtcdNodes;
import io.baton.lease.etcd.EtcdTestCluster;
import io.baton.lease.etcd.OrphanRecorder;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * Acquire latency and hand-off time of {@link EtcdLeaseManager} on a real etcd member that the
 * benchmark starts itself (loopback, temporary data directory). Prints Markdown tables:
 *
 * <ul>
 *   <li>single: {@code acquire(run)} one after another, one etcd transaction each;
 *   <li>batched: {@code acquireAll} of the same number of fresh runs, timed per transaction (126
 *       runs each at etcd's default {@code --max-txn-ops}), and re-acquiring runs the node already
 *       owns (startup recovery);
 *   <li>hand-off: another node's watcher, from just before {@code releaseAll()} (one lease revoke)
 *       to the notification of the last of the runs.
 * </ul>
 *
 * <p>Run it (from the repository root):
 *
 * <pre>
 * mvn -B -q -pl lease-etcd -am -Pbench -DskipTests verify
 * </pre>
 *
 * System properties: {@code baton.bench.sizes} (default {@code 1000,10000}), {@code
 * baton.bench.handoffRuns} (1000), {@code baton.bench.handoffRounds} (5), {@code
 * baton.bench.warmup} (2000).
 */
public final class LeaseBenchmark {
  private static final Duration LEASE_TTL = Duration.ofSeconds(10);
  private static final Duration PATIENCE = Duration.ofMinutes(2);

  private final EtcdTestCluster etcd;
  private final PrintStream out;

  /** Latencies of one scenario, in milliseconds. */
  public record Figures(
      String scenario, int runs, int roundTrips, double p50, double p99, double max, double total) {
    double runsPerSecond() {
      return runs / (total / 1000.0);
    }
  }

  public LeaseBenchmark(EtcdTestCluster etcd, PrintStream out) {
    this.etcd = etcd;
    this.out = out;
  }

  public static void main(String[] args) {
    List<Integer> sizes =
        Arrays.stream(System.getProperty("baton.bench.sizes", "1000,10000").split(","))
            .map(String::trim)
            .map(Integer::parseInt)
            .toList();
    int handoffRuns = Integer.getInteger("baton.bench.handoffRuns", 1000);
    int handoffRounds = Integer.getInteger("baton.bench.handoffRounds", 5);
    int warmup = Integer.getInteger("baton.bench.warmup", 2000);
    System.out.println(machine());
    try (EtcdTestCluster etcd = EtcdTestCluster.start(1)) {
      LeaseBenchmark benchmark = new LeaseBenchmark(etcd, System.out);
      benchmark.warmUp(warmup);
      List<Figures> acquires = new ArrayList<>();
      for (int size : sizes) {
        acquires.add(benchmark.singleAcquires(size));
        acquires.add(benchmark.batchedAcquires(size, false));
        acquires.add(benchmark.batchedAcquires(size, true));
      }
      benchmark.printAcquires(acquires);
      benchmark.printHandoffs(handoffRuns, benchmark.handoffs(handoffRuns, handoffRounds));
    }
    System.exit(0); // jetcd and the scheduler leave daemon threads; exec:exec waits for the JVM
  }

  /** Runs every scenario once, small, so that the JIT has compiled the paths measured next. */
  public void warmUp(int runs) {
    if (runs <= 0) {
      return;
    }
    singleAcquires(runs);
    batchedAcquires(runs, true);
    handoffs(Math.max(1, runs / 10), 1);
  }

  /** {@code acquire(run)} on {@code count} fresh runs, one after another. */
  public Figures singleAcquires(int count) {
    try (EtcdNodes nodes = new EtcdNodes(etcd, LEASE_TTL)) {
      EtcdLeaseManager node = nodes.start("bench-single");
      List<UUID> runs = freshRuns(count);
      long[] nanos = new long[count];
      long start = System.nanoTime();
      for (int i = 0; i < count; i++) {
        long before = System.nanoTime();
        AcquireResult result = node.acquire(runs.get(i));
        nanos[i] = System.nanoTime() - before;
        requireAcquired(result);
      }
      long total = System.nanoTime() - start;
      node.releaseAll();
      return figures("acquire, one run per call", count, count, nanos, total);
    }
  }

  /**
   * {@code acquireAll} of {@code count} runs, one transaction per batch; with {@code owned} the
   * node owns them already (startup recovery re-acquires its own runs).
   */
  public Figures batchedAcquires(int count, boolean owned) {
    try (EtcdNodes nodes = new EtcdNodes(etcd, LEASE_TTL)) {
      EtcdLeaseManager node = nodes.start("bench-batched");
      List<UUID> runs = freshRuns(count);
      if (owned) {
        node.acquireAll(runs);
      }
      int batch = etcdBatchSize();
      List<Long> nanos = new ArrayList<>();
      long start = System.nanoTime();
      for (int from = 0; from < count; from += batch) {
        List<UUID> chunk = runs.subList(from, Math.min(count, from + batch));
        long before = System.nanoTime();
        Map<UUID, AcquireResult> results = node.acquireAll(chunk);
        nanos.add(System.nanoTime() - before);
        results.values().forEach(LeaseBenchmark::requireAcquired);
      }
      long total = System.nanoTime() - start;
      node.releaseAll();
      return figures(
          owned ? "acquireAll, runs already owned (recovery)" : "acquireAll, fresh runs",
          count,
          nanos.size(),
          nanos.stream().mapToLong(Long::longValue).toArray(),
          total);
    }
  }

  /**
   * One hand-off, in milliseconds from just before one node's {@code releaseAll()}: when that call
   * returned, and when another node's watcher was told of the first and the last of the orphans.
   */
  public record Handoff(
      double revokeReturned, double firstOrphan, double lastOrphan, int batches) {}

  /** {@code rounds} hand-offs of {@code runs} runs each, to one watching node. */
  public List<Handoff> handoffs(int runs, int rounds) {
    List<Handoff> handoffs = new ArrayList<>();
    try (EtcdNodes nodes = new EtcdNodes(etcd, LEASE_TTL)) {
      EtcdLeaseManager watching = nodes.start("bench-watcher");
      OrphanRecorder watcher = new OrphanRecorder();
      try (Subscription ignored = watching.watchOrphans(watcher)) {
        for (int round = 0; round < rounds; round++) {
          EtcdLeaseManager owner = nodes.start("bench-owner-" + round);
          List<UUID> owned = freshRuns(runs);
          owner.acquireAll(owned).values().forEach(LeaseBenchmark::requireAcquired);
          int batchesBefore = watcher.arrivalNanos().size();
          long before = System.nanoTime();
          owner.releaseAll();
          long returned = System.nanoTime();
          Awaitility.await("all " + runs + " orphans")
              .atMost(PATIENCE)
              .pollInterval(Duration.ofMillis(1))
              .until(() -> watcher.runIds().containsAll(owned));
          List<Long> arrivals =
              watcher.arrivalNanos().subList(batchesBefore, watcher.arrivalNanos().size());
          handoffs.add(
              new Handoff(
                  (returned - before) / 1e6,
                  (arrivals.get(0) - before) / 1e6,
                  (watcher.lastArrivalNanos() - before) / 1e6,
                  arrivals.size()));
        }
        if (!watcher.duplicates().isEmpty() || !watcher.gaps().isEmpty()) {
          throw new IllegalStateException("the watcher saw duplicates or gaps");
        }
      }
    }
    return handoffs;
  }

  public void printAcquires(List<Figures> figures) {
    out.println();
    out.println("| scenario | runs | round trips | p50 ms | p99 ms | max ms | total ms | runs/s |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (Figures f : figures) {
      out.printf(
          "| %s | %,d | %,d | %.2f | %.2f | %.2f | %,.0f | %,.0f |%n",
          f.scenario(),
          f.runs(),
          f.roundTrips(),
          f.p50(),
          f.p99(),
          f.max(),
          f.total(),
          f.runsPerSecond());
    }
    out.println();
    out.println(
        "p50/p99/max are per call: one acquire, or one acquireAll transaction of up to "
            + etcdBatchSize()
            + " runs.");
  }

  public void printHandoffs(int runs, List<Handoff> handoffs) {
    double[] last = handoffs.stream().mapToDouble(Handoff::lastOrphan).sorted().toArray();
    out.println();
    out.printf(
        "revoke -> last orphan notification on another node, %,d runs, %d rounds:"
            + " median %.1f ms, max %.1f ms%n",
        runs, last.length, last[(last.length - 1) / 2], last[last.length - 1]);
    out.println();
    out.println(
        "| round | releaseAll() returned ms | first orphan ms | last orphan ms | batches |");
    out.println("|---:|---:|---:|---:|---:|");
    for (int round = 0; round < handoffs.size(); round++) {
      Handoff h = handoffs.get(round);
      out.printf(
          "| %d | %.1f | %.1f | %.1f | %d |%n",
          round + 1, h.revokeReturned(), h.firstOrphan(), h.lastOrphan(), h.batches());
    }
  }

  private static int etcdBatchSize() {
    return EtcdLeaseConfig.DEFAULT_MAX_TXN_OPS - 2;
  }

  private static Figures figures(String scenario, int runs, int calls, long[] nanos, long total) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return new Figures(
        scenario,
        runs,
        calls,
        percentile(sorted, 0.50),
        percentile(sorted, 0.99),
        sorted[sorted.length - 1] / 1e6,
        total / 1e6);
  }

  private static double percentile(long[] sorted, double quantile) {
    int index = (int) Math.ceil(quantile * sorted.length) - 1;
    return sorted[Math.max(0, index)] / 1e6;
  }

  private static List<UUID> freshRuns(int count) {
    List<UUID> runs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      runs.add(UUID.randomUUID());
    }
    return runs;
  }

  private static void requireAcquired(AcquireResult result) {
    if (!result.isAcquired()) {
      throw new IllegalStateException("benchmark run not acquired: " + result);
    }
  }

  static String machine() {
    Runtime runtime = Runtime.getRuntime();
    return String.format(
        "machine: %s %s, %d cores, JVM %s (%s), max heap %d MiB, %s",
        System.getProperty("os.name"),
        System.getProperty("os.version"),
        runtime.availableProcessors(),
        System.getProperty("java.version"),
        System.getProperty("java.vm.name"),
        runtime.maxMemory() / (1024 * 1024),
        etcdVersion());
  }

  private static String etcdVersion() {
    try {
      Process process = new ProcessBuilder("etcd", "--version").redirectErrorStream(true).start();
      String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      process.waitFor(10, TimeUnit.SECONDS);
      return text.lines().findFirst().orElse("etcd (version unknown)");
    } catch (IOException e) {
      return "etcd (version unknown: " + e.getMessage() + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "etcd (version unknown)";
    }
  }
}

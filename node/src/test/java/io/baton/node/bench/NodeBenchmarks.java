package io.baton.node.bench;

import io.baton.bench.EngineThroughput;
import io.baton.engine.RunEvent;
import io.baton.journal.ClaimReason;
import io.baton.journal.JournalCodec;
import io.baton.lease.etcd.EtcdLeaseConfig;
import io.baton.lease.etcd.EtcdLeaseManager;
import io.baton.node.testing.HoldCapability;
import io.baton.recovery.RecoveryConfig;
import io.baton.retention.HousekeepingConfig;
import io.baton.store.Stores;
import io.baton.store.postgres.PostgresStores;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * The node-level benchmarks on real PostgreSQL and etcd: engine throughput, startup recovery,
 * memory per active and parked run, SIGTERM hand-off and failover after a crash. Prints figures;
 * asserts nothing about time. Run with {@code deploy/bench.sh
 * [engine|latency|events|recovery|memory|handoff|failover|all]}; also {@code rebalance}, {@code
 * longrun}, {@code retention} and {@code dashboard}, which {@code all} leaves out.
 */
public final class NodeBenchmarks {
  /** A run that stays active: its second step holds until cancelled. */
  static final String HELD_FLOW =
      """
      name: held
      steps:
        - name: first
          capability: noop
          params: {n: "{{ input.n }}"}
        - name: hold
          capability: hold
      """;

  private NodeBenchmarks() {}

  public static void main(String[] args) throws Exception {
    String which = args.length == 0 ? "all" : args[0];
    int size = Integer.getInteger("baton.bench.size", 10_000);
    String jfr = System.getProperty("baton.bench.jfr", "");
    if (!jfr.isEmpty()) {
      Recording recording = new Recording(Configuration.getConfiguration("profile"));
      recording.setDestination(Path.of(jfr));
      recording.start();
      // A recording writes its destination when it stops; close() alone discards it.
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    recording.stop();
                    recording.close();
                  }));
    }
    System.out.printf(
        "machine: %d cores, max heap %d MiB, Java %s%n",
        Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20,
        System.getProperty("java.version"));
    if (which.equals("engine") || which.equals("all")) {
      engine(
          Integer.getInteger("baton.bench.runs", 50_000),
          Integer.getInteger("baton.bench.window", 2_000));
    }
    if (which.equals("latency") || which.equals("all")) {
      LatencyBenchmark.run(
          Integer.getInteger("baton.bench.latencyRuns", 2_000),
          Duration.ofSeconds(Integer.getInteger("baton.bench.loadSeconds", 5)));
    }
    if (which.equals("events") || which.equals("all")) {
      EventsBenchmark.run(
          Integer.getInteger("baton.bench.events", 20_000),
          Integer.getInteger("baton.bench.appThreads", 8),
          Integer.getInteger("baton.bench.eventRate", 2_000));
    }
    if (which.equals("recovery") || which.equals("all")) {
      recovery(size);
    }
    if (which.equals("memory") || which.equals("all")) {
      memory(size);
    }
    if (which.equals("handoff") || which.equals("all")) {
      handoff(Integer.getInteger("baton.bench.handoffRuns", 1_000));
    }
    if (which.equals("failover") || which.equals("all")) {
      int trials = Integer.getInteger("baton.bench.trials", 20);
      int runs = Integer.getInteger("baton.bench.handoffRuns", 1_000);
      Duration ttl = Duration.ofSeconds(Integer.getInteger("baton.bench.ttlSeconds", 10));
      failoverTrials("kill -9", trials, () -> failover(runs, ttl), ttl, "p99 < 1000 ms");
      failoverTrials(
          "SIGSTOP",
          trials,
          () -> pausedFailover(runs, ttl),
          ttl,
          "p99 <= TTL + 500 = " + (ttl.toMillis() + 500) + " ms");
    }
    if (which.equals("rebalance")) {
      RebalanceBenchmark.run(
          Integer.getInteger("baton.bench.rebalanceRuns", 30_000),
          3,
          6,
          Duration.ofSeconds(Integer.getInteger("baton.bench.stepSeconds", 10)),
          Integer.getInteger("baton.bench.churnCycles", 6),
          Duration.ofSeconds(10));
    }
    if (which.equals("longrun")) {
      LongRunBenchmark.run(
          Long.getLong("baton.bench.longrunEntries", 1_000_000),
          Integer.getInteger("baton.bench.trials", 20),
          Duration.ofSeconds(Integer.getInteger("baton.bench.ttlSeconds", 10)),
          Integer.getInteger("baton.bench.checkpointEntries", 1_000),
          HousekeepingConfig.DEFAULTS);
    }
    if (which.equals("dashboard")) {
      DashboardBenchmark.run(
          Integer.getInteger("baton.bench.dashboardRuns", 1_000_000),
          Integer.getInteger("baton.bench.dashboardEntries", 100_000),
          Integer.getInteger("baton.bench.trials", 20));
    }
    if (which.equals("retention")) {
      RetentionBenchmark.run(
          Integer.getInteger("baton.bench.retentionRuns", 10_000),
          Integer.getInteger("baton.bench.retentionSteps", 200),
          Integer.getInteger("baton.bench.retentionWindow", 100),
          Duration.ofSeconds(Integer.getInteger("baton.bench.retentionSeconds", 5)),
          Duration.ofSeconds(5),
          Duration.ofSeconds(Integer.getInteger("baton.bench.vacuumSeconds", 30)),
          new HousekeepingConfig(
              HousekeepingConfig.DEFAULT_ARCHIVE_BATCH_SIZE,
              HousekeepingConfig.DEFAULT_ARCHIVE_PAUSE,
              HousekeepingConfig.DEFAULT_ARCHIVE_INTERVAL,
              HousekeepingConfig.DEFAULT_FINISHED_RUNS,
              HousekeepingConfig.DEFAULT_RETENTION_BATCH_SIZE,
              HousekeepingConfig.DEFAULT_RETENTION_PAUSE,
              Duration.ofSeconds(5)));
    }
    System.exit(0);
  }

  /** Step completions per second, 3-step flows, one node, journal and fencing on every step. */
  static EngineThroughput.Figures engine(int runs, int window) throws Exception {
    try (BenchCluster cluster = new BenchCluster()) {
      Stores stores =
          PostgresStores.create(
              cluster.database.config().maxPoolSize(8).build(), Clock.systemUTC());
      EngineThroughput.Figures figures =
          EngineThroughput.measure(
              stores,
              scheduler ->
                  new EtcdLeaseManager(
                      EtcdLeaseConfig.builder()
                          .endpoints(cluster.etcd.endpoints())
                          .cluster("bench-engine")
                          .build(),
                      "bench-node",
                      scheduler),
              runs,
              window,
              runs / 5,
              2);
      stores.close();
      System.out.println(
          "engine on PostgreSQL and etcd ("
              + (EngineThroughput.flowOfProperty().contains("recovery: fail")
                  ? "recovery: fail, steps' starts journaled"
                  : "recovery: resume")
              + "): "
              + figures);
      return figures;
    }
  }

  /** A node that crashed with {@code size} running runs starts again and re-adopts them all. */
  static Duration recovery(int size) throws Exception {
    try (BenchCluster cluster = new BenchCluster()) {
      HoldCapability hold = new HoldCapability();
      BenchCluster.Node first =
          cluster.start(
              "bench-a",
              Duration.ofSeconds(30),
              List.of(hold),
              c -> c.withMaxConcurrentRuns(size * 2),
              RecoveryConfig.defaults());
      first.node().orchestrator().applyFlow(HELD_FLOW, "held.yaml");
      submitHeld(first, size, hold);
      first.node().halt().get(1, TimeUnit.MINUTES);

      long start = System.nanoTime();
      BenchCluster.Node again =
          cluster.start(
              "bench-a",
              Duration.ofSeconds(30),
              List.of(hold),
              c -> c.withMaxConcurrentRuns(size * 2),
              RecoveryConfig.defaults());
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      if (again.node().engine().activeCount() != size) {
        throw new IllegalStateException(
            "recovered " + again.node().engine().activeCount() + " of " + size + " runs");
      }
      System.out.printf(
          Locale.ROOT,
          "startup recovery: %d of %d owned runs re-adopted in %d ms (node start"
              + " included: lease grant, query, %d acquires in batches, %d replays, claims journaled)%n",
          again.node().engine().activeCount(),
          size,
          took.toMillis(),
          size,
          size);
      return took;
    }
  }

  /** Heap for {@code size} active runs (a step in flight each), then for as many parked runs. */
  static void memory(int size) throws Exception {
    try (BenchCluster cluster = new BenchCluster()) {
      HoldCapability hold = new HoldCapability();
      BenchCluster.Node node =
          cluster.start(
              "bench-m",
              Duration.ofSeconds(30),
              List.of(hold),
              c -> c.withMaxConcurrentRuns(size * 2),
              RecoveryConfig.defaults().withEnabled(false));
      node.node().orchestrator().applyFlow(HELD_FLOW, "held.yaml");
      node.node()
          .orchestrator()
          .applyFlow(
              "name: asks\nsteps:\n  - name: ask\n    capability: approval\n"
                  + "    params: {prompt: \"ok?\"}\n",
              "asks.yaml");
      long baseline = heapAfterGc();
      submitHeld(node, size, hold);
      long active = heapAfterGc() - baseline;
      System.out.printf(
          Locale.ROOT,
          "memory: %d active runs hold %d MiB of heap (%d bytes per run; max heap %d MiB)%n",
          node.node().engine().activeCount(),
          active >> 20,
          active / size,
          Runtime.getRuntime().maxMemory() >> 20);
      node.node().engine().dropAll("measuring parked runs").get(1, TimeUnit.MINUTES);
      long before = heapAfterGc();
      submit(node, "asks", size);
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (node.node().engine().activeCount() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      if (node.node().engine().activeCount() > 0) {
        throw new IllegalStateException(node.node().engine().activeCount() + " runs did not park");
      }
      long parked = heapAfterGc() - before;
      System.out.printf(
          Locale.ROOT,
          "memory: %d parked runs (approvals) hold %d KiB of heap; the node executes %d trees%n",
          size,
          parked >> 10,
          node.node().engine().activeCount());
    }
  }

  private enum Departure {
    RELEASE,
    KILL,
    PAUSE
  }

  /** One failover trial; returns when the last run was adopted, in ms after the failure. */
  @FunctionalInterface
  interface Trial {
    long run() throws Exception;
  }

  /** Runs a failover {@code trials} times and prints the distribution of the last adoption. */
  static long[] failoverTrials(String kind, int trials, Trial trial, Duration ttl, String target)
      throws Exception {
    long[] millis = new long[trials];
    for (int i = 0; i < trials; i++) {
      millis[i] = trial.run();
    }
    long[] sorted = millis.clone();
    Arrays.sort(sorted);
    System.out.printf(
        Locale.ROOT,
        "%s failover over %d trials (lease TTL %d ms): last run adopted p50 %d ms, p90 %d ms,"
            + " p99 %d ms, max %d ms (target %s); all: %s%n",
        kind,
        trials,
        ttl.toMillis(),
        percentile(sorted, 50),
        percentile(sorted, 90),
        percentile(sorted, 99),
        sorted[sorted.length - 1],
        target,
        Arrays.toString(millis));
    return millis;
  }

  private static long percentile(long[] sorted, int p) {
    int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  /** A node releases {@code size} active runs; the other adopts them. */
  static long handoff(int size) throws Exception {
    return moveRuns(size, Duration.ofSeconds(10), Departure.RELEASE);
  }

  /**
   * A node dies without releasing ({@code kill -9}: its port refuses connections); the other's
   * failure detector revokes its lease and adopts its runs.
   */
  static long failover(int size, Duration ttl) throws Exception {
    return moveRuns(size, ttl, Departure.KILL);
  }

  /**
   * A node stops answering with its port still bound (SIGSTOP): no evidence of death, so the other
   * adopts its runs once its lease expires.
   */
  static long pausedFailover(int size, Duration ttl) throws Exception {
    return moveRuns(size, ttl, Departure.PAUSE);
  }

  private static long moveRuns(int size, Duration ttl, Departure departure) throws Exception {
    boolean graceful = departure == Departure.RELEASE;
    try (BenchCluster cluster = new BenchCluster()) {
      HoldCapability hold = new HoldCapability();
      BenchCluster.Node leaving =
          cluster.start(
              "bench-leaving",
              ttl,
              List.of(hold),
              c -> c.withMaxConcurrentRuns(size * 2),
              RecoveryConfig.defaults());
      BenchCluster.Node staying =
          cluster.start(
              "bench-staying",
              ttl,
              List.of(hold),
              c -> c.withMaxConcurrentRuns(size * 2),
              RecoveryConfig.defaults());
      leaving.node().orchestrator().applyFlow(HELD_FLOW, "held.yaml");
      submitHeld(leaving, size, hold);
      ClaimReason reason = graceful ? ClaimReason.HANDOFF : ClaimReason.ORPHAN;
      CountDownLatch adopted = new CountDownLatch(size);
      AtomicLong lastClaim = new AtomicLong();
      staying
          .node()
          .engine()
          .addListener(
              event -> {
                if (event instanceof RunEvent.Claimed claimed && claimed.reason() == reason) {
                  lastClaim.set(System.nanoTime());
                  adopted.countDown();
                }
              });
      long start = System.nanoTime();
      if (graceful) {
        leaving.node().engine().startDraining();
        leaving.node().leases().releaseAll();
      } else if (departure == Departure.KILL) {
        leaving.kill();
      } else {
        leaving.pause();
      }
      if (!adopted.await(2, TimeUnit.MINUTES)) {
        throw new IllegalStateException(adopted.getCount() + " runs were not adopted");
      }
      long millis = TimeUnit.NANOSECONDS.toMillis(lastClaim.get() - start);
      if (graceful) {
        System.out.printf(
            Locale.ROOT,
            "SIGTERM hand-off: the last of %d runs adopted %d ms after the release%n",
            size,
            millis);
      } else {
        System.out.printf(
            Locale.ROOT,
            "%s failover: the last of %d runs adopted %d ms after the node %s (lease TTL %d ms)%n",
            departure == Departure.KILL ? "kill -9" : "SIGSTOP",
            size,
            millis,
            departure == Departure.KILL ? "died" : "stopped",
            ttl.toMillis());
      }
      return millis;
    }
  }

  private static void submitHeld(BenchCluster.Node node, int count, HoldCapability hold)
      throws Exception {
    int before = hold.invoked();
    submit(node, "held", count);
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (hold.invoked() < before + count && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
  }

  private static void submit(BenchCluster.Node node, String flow, int count) throws Exception {
    Semaphore window = new Semaphore(2_000);
    CountDownLatch done = new CountDownLatch(count);
    for (int i = 0; i < count; i++) {
      window.acquire();
      node.node()
          .orchestrator()
          .submitAsync(flow, JournalCodec.mapper().createObjectNode().put("n", i), null, null)
          .whenComplete(
              (r, f) -> {
                window.release();
                done.countDown();
              });
    }
    done.await(5, TimeUnit.MINUTES);
  }

  private static long heapAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}

package io.baton.node.bench;

import io.baton.bench.EngineThroughput;
import io.baton.engine.RunEvent;
import io.baton.journal.ClaimReason;
import io.baton.journal.JournalCodec;
import io.baton.lease.etcd.EtcdLeaseConfig;
import io.baton.lease.etcd.EtcdLeaseManager;
import io.baton.node.testing.HoldCapability;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.Stores;
import io.baton.store.postgres.PostgresStores;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
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
 * [engine|latency|events|recovery|memory|handoff|failover|all]}.
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
      Runtime.getRuntime().addShutdownHook(new Thread(recording::close));
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
          Integer.getInteger("baton.bench.appThreads", 8));
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
      failover(
          Integer.getInteger("baton.bench.handoffRuns", 1_000),
          Duration.ofSeconds(Integer.getInteger("baton.bench.ttlSeconds", 10)));
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

  /** A node releases {@code size} active runs; the other adopts them. */
  static void handoff(int size) throws Exception {
    moveRuns(size, Duration.ofSeconds(10), true);
  }

  /** A node dies without releasing; the other adopts its runs once its lease expires. */
  static void failover(int size, Duration ttl) throws Exception {
    moveRuns(size, ttl, false);
  }

  private static void moveRuns(int size, Duration ttl, boolean graceful) throws Exception {
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
      } else {
        leaving.node().halt();
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
            "kill -9 failover: the last of %d runs adopted %d ms after the node died"
                + " (lease TTL %d ms; target TTL + 500 ms)%n",
            size,
            millis,
            ttl.toMillis());
      }
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

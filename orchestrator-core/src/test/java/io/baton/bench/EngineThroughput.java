package io.baton.bench;

import com.codahale.metrics.MetricRegistry;
import io.baton.capability.builtin.BuiltInCapabilities;
import io.baton.cluster.OrchestratorNode;
import io.baton.engine.BatchingEngineIo;
import io.baton.engine.EngineConfig;
import io.baton.engine.EngineMetrics;
import io.baton.engine.RunEvent;
import io.baton.flow.FlowParser;
import io.baton.journal.GroupCommitter;
import io.baton.journal.JournalCodec;
import io.baton.journal.RunStatus;
import io.baton.lease.LeaseManager;
import io.baton.lease.memory.InMemoryLeaseManager;
import io.baton.lease.memory.InMemoryLeaseService;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import io.baton.time.SystemScheduler;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Step completions per second for 3-step flows on one node, through the production I/O path (group
 * commit, batched lease calls, real threads), with the journal and fencing of every step. Stores
 * and leases are pluggable so the node module runs the same measurement on PostgreSQL and etcd. A
 * benchmark, not a test: it prints figures and asserts nothing about time.
 */
public final class EngineThroughput {
  /** What one measurement saw. */
  public record Figures(
      int runs,
      int window,
      double seconds,
      double stepsPerSecond,
      double runsPerSecond,
      double meanBatch,
      long retries) {
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%d runs (window %d) in %.2f s: %.0f step completions/s, %.0f runs/s, mean journal batch %.1f appends, %d journal retries",
          runs,
          window,
          seconds,
          stepsPerSecond,
          runsPerSecond,
          meanBatch,
          retries);
    }
  }

  private EngineThroughput() {}

  public static final String FLOW =
      """
      name: bench-3
      steps:
        - name: a
          capability: noop
          params: {n: "{{ input.n }}"}
        - name: b
          capability: noop
          params: {from: "{{ steps.a.output.n }}"}
        - name: c
          capability: noop
          params: {from: "{{ steps.b.output.from }}"}
      """;

  /**
   * The same flow with {@code recovery: fail}: each step's start is journaled too (an append before
   * each step), so that an adopter can tell an interrupted step from a quiet hand-off.
   */
  public static final String FLOW_FAIL_POLICY =
      FLOW.replace("name: bench-3\n", "name: bench-3\nrecovery: fail\n");

  /**
   * The flow {@code -Dbaton.bench.policy=fail} asks for ({@link #FLOW_FAIL_POLICY}), else {@link
   * #FLOW}.
   */
  public static String flowOfProperty() {
    return "fail".equals(System.getProperty("baton.bench.policy")) ? FLOW_FAIL_POLICY : FLOW;
  }

  /**
   * Runs {@code runs} 3-step runs with at most {@code window} in flight, after {@code warmup} runs
   * that are not counted; the flow is {@link #flowOfProperty()}.
   */
  public static Figures measure(
      Stores stores,
      Function<SystemScheduler, LeaseManager> leases,
      int runs,
      int window,
      int warmup,
      int committers)
      throws Exception {
    try (SystemScheduler scheduler = new SystemScheduler("bench", 2)) {
      MetricRegistry metrics = new MetricRegistry();
      var registry = BuiltInCapabilities.registry();
      LeaseManager lease = leases.apply(scheduler);
      OrchestratorNode node =
          OrchestratorNode.builder()
              .config(
                  EngineConfig.defaults("bench-node")
                      .withMaxConcurrentRuns(window * 2)
                      .withCheckpoints(
                          Integer.getInteger(
                              "baton.bench.checkpointEntries",
                              EngineConfig.DEFAULT_CHECKPOINT_ENTRIES),
                          EngineConfig.DEFAULT_CHECKPOINT_BYTES))
              .recovery(RecoveryConfig.defaults().withEnabled(false))
              .scheduler(scheduler)
              .stores(stores)
              .leases(lease)
              .capabilities(registry)
              .flowReader(new FlowParser(registry)::parse)
              .metrics(metrics)
              .io(
                  (nodeScheduler, journal, nodeLease) -> {
                    GroupCommitter committer =
                        new GroupCommitter(
                            journal, 512, Duration.ZERO, committers, "bench-committer");
                    new EngineMetrics(metrics).observe(committer);
                    return new BatchingEngineIo(committer, nodeLease, 4);
                  })
              .build();
      node.start().get(30, TimeUnit.SECONDS);
      node.orchestrator().applyFlow(flowOfProperty(), "bench-3.yaml");
      drive(node, warmup, window);
      long retriesBefore = metrics.counter(EngineMetrics.JOURNAL_RETRIES).getCount();
      long start = System.nanoTime();
      drive(node, runs, window);
      double seconds = (System.nanoTime() - start) / 1e9;
      double meanBatch =
          metrics.histogram(EngineMetrics.JOURNAL_BATCH_SIZE).getSnapshot().getMean();
      long retries = metrics.counter(EngineMetrics.JOURNAL_RETRIES).getCount() - retriesBefore;
      node.drain().get(30, TimeUnit.SECONDS);
      node.close();
      return new Figures(
          runs, window, seconds, runs * 3 / seconds, runs / seconds, meanBatch, retries);
    }
  }

  private static void drive(OrchestratorNode node, int runs, int window)
      throws InterruptedException {
    if (runs == 0) {
      return;
    }
    Semaphore inFlight = new Semaphore(window);
    CountDownLatch done = new CountDownLatch(runs);
    AtomicLong failed = new AtomicLong();
    node.engine()
        .addListener(
            event -> {
              if (event instanceof RunEvent.StatusChanged changed
                  && changed.status().isTerminal()
                  && changed.runId().equals(changed.rootRunId())) {
                if (changed.status() != RunStatus.SUCCEEDED) {
                  failed.incrementAndGet();
                }
                inFlight.release();
                done.countDown();
              }
            });
    for (int i = 0; i < runs; i++) {
      inFlight.acquire();
      var input = JournalCodec.mapper().createObjectNode().put("n", i);
      node.orchestrator()
          .submitAsync("bench-3", input, null, null)
          .exceptionally(
              failure -> {
                failed.incrementAndGet();
                inFlight.release();
                done.countDown();
                return null;
              });
    }
    if (!done.await(10, TimeUnit.MINUTES)) {
      throw new IllegalStateException(done.getCount() + " runs did not finish");
    }
    if (failed.get() > 0) {
      throw new IllegalStateException(failed.get() + " runs failed");
    }
  }

  /**
   * In memory: {@code mvn -q -pl orchestrator-core -am test-compile exec:java ...} (see README).
   */
  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
    int window = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
    Stores stores = InMemoryStores.create();
    System.out.println(
        "in-memory stores and leases: "
            + measure(
                stores,
                scheduler ->
                    new InMemoryLeaseManager(
                        "bench-node",
                        Duration.ofSeconds(10),
                        new InMemoryLeaseService(scheduler),
                        scheduler),
                runs,
                window,
                runs / 5,
                1));
  }
}

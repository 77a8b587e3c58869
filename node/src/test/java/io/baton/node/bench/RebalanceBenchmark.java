package io.baton.node.bench;

import io.baton.capability.Capability;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import io.baton.cluster.RebalanceConfig;
import io.baton.cluster.Rebalancer;
import io.baton.journal.JournalCodec;
import io.baton.recovery.RecoveryConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Rebalancing on scale-up (issue 16): {@code from} nodes in one JVM on PostgreSQL and etcd hold
 * {@code runs} long-running runs (each a sequence of {@code tick} steps of about {@code step}, so a
 * run reaches a step boundary once a step); {@code to - from} nodes join. Prints how long and how
 * many rounds (per node: rounds in which it gave runs) until every node is within ±10 % of its
 * share, runs moved against the minimum a perfect plan moves, step completions journaled twice, and
 * the pause of a moved run (from its last step's end on the giver to its next step's start on the
 * receiver) beside the ordinary step-to-step gap. Then one node joins and leaves every {@code
 * churnEvery} for {@code churnCycles} cycles and the runs moved per cycle are printed.
 */
final class RebalanceBenchmark {
  private static final int STEPS = 200;
  private static final double BAND = 0.10;

  private RebalanceBenchmark() {}

  record Figures(
      Duration toBalanced,
      long rounds,
      long maxRoundsPerGiver,
      long moved,
      long minimum,
      long doubleCompletions,
      Latencies pause,
      Latencies gap,
      long churnMoved) {}

  record Latencies(long samples, double p50, double p99, double max) {
    static Latencies of(List<Long> nanos) {
      long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
      if (sorted.length == 0) {
        return new Latencies(0, 0, 0, 0);
      }
      return new Latencies(
          sorted.length,
          sorted[(int) Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.50) - 1)] / 1e6,
          sorted[(int) Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] / 1e6,
          sorted[sorted.length - 1] / 1e6);
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT, "p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d)", p50, p99, max, samples);
    }
  }

  /** Where each run's previous tick ran and when it ended; the gaps before each next tick. */
  static final class Ticks {
    private final ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bench-ticks");
              t.setDaemon(true);
              return t;
            });
    private final Duration step;
    private final Map<UUID, Last> last = new ConcurrentHashMap<>();
    private final List<Long> movedGaps = new ArrayList<>();
    private final List<Long> stayedGaps = new ArrayList<>();
    private volatile boolean measuring;

    private record Last(String node, long endedNanos) {}

    Ticks(Duration step) {
      this.step = step;
    }

    Capability on(String nodeId) {
      return BenchCluster.capability("tick", invocation -> tick(nodeId, invocation));
    }

    private CompletionStage<StepOutcome> tick(String nodeId, Invocation invocation) {
      long now = System.nanoTime();
      Last before = last.get(invocation.runId());
      if (measuring && before != null) {
        synchronized (this) {
          (before.node().equals(nodeId) ? stayedGaps : movedGaps).add(now - before.endedNanos());
        }
      }
      // a random first step spreads the runs' boundaries over a whole step
      long millis =
          before == null
              ? ThreadLocalRandom.current().nextLong(step.toMillis()) + 1
              : step.toMillis();
      CompletableFuture<StepOutcome> outcome = new CompletableFuture<>();
      timer.schedule(
          () -> {
            last.put(invocation.runId(), new Last(nodeId, System.nanoTime()));
            outcome.complete(
                StepOutcome.completed(JournalCodec.mapper().createObjectNode().put("n", 1)));
          },
          millis,
          TimeUnit.MILLISECONDS);
      return outcome;
    }

    synchronized void startMeasuring() {
      movedGaps.clear();
      stayedGaps.clear();
      measuring = true;
    }

    synchronized Latencies moved() {
      return Latencies.of(new ArrayList<>(movedGaps));
    }

    synchronized Latencies stayed() {
      return Latencies.of(new ArrayList<>(stayedGaps));
    }

    void close() {
      timer.shutdownNow();
    }
  }

  static Figures run(
      int runs, int from, int to, Duration step, int churnCycles, Duration churnEvery)
      throws Exception {
    Ticks ticks = new Ticks(step);
    RebalanceConfig rebalance =
        RebalanceConfig.defaults().withInterval(step).withOfferPollInterval(Duration.ofMillis(100));
    try (BenchCluster cluster = new BenchCluster()) {
      List<BenchCluster.Node> nodes = new ArrayList<>();
      for (int i = 0; i < from; i++) {
        nodes.add(start(cluster, "bench-" + i, ticks, runs, rebalance));
      }
      nodes.get(0).node().orchestrator().applyFlow(flow(), "ticking.yaml");
      for (int i = 0; i < runs; i++) {
        nodes
            .get(i % from)
            .node()
            .orchestrator()
            .submit("ticking", JournalCodec.mapper().createObjectNode().put("n", i), null);
      }
      awaitActive(nodes, runs, Duration.ofMinutes(5));
      long[] before = nodes.stream().mapToLong(n -> n.node().engine().activeCount()).toArray();
      long minimum = minimumMoves(before, to);
      System.out.printf(
          Locale.ROOT,
          "rebalance: %d long-running runs (%d steps of %d ms) on %d nodes %s; %d nodes join%n",
          runs,
          STEPS,
          step.toMillis(),
          from,
          Arrays.toString(before),
          to - from);

      // rounds and moves while the runs were being submitted are not the scale-up's
      long[] roundsBefore = roundsPerNode(nodes, new long[0]);
      long movedBefore = sum(nodes, Rebalancer.MOVED_OUT);
      ticks.startMeasuring();
      long started = System.nanoTime();
      for (int i = from; i < to; i++) {
        nodes.add(start(cluster, "bench-" + i, ticks, runs, rebalance));
      }
      Duration toBalanced = awaitBalanced(nodes, runs, Duration.ofMinutes(5), started);
      long[] roundsAtBalance = roundsPerNode(nodes, roundsBefore);
      System.out.printf(
          Locale.ROOT,
          "rebalance: every node within ±%.0f %% of its share %d ms after the first joined; %s;"
              + " rounds per node so far %s%n",
          BAND * 100,
          toBalanced.toMillis(),
          Arrays.toString(counts(nodes)),
          Arrays.toString(roundsAtBalance));
      // rounds begun before the balance may still be moving runs, and a correction would come in
      // the next rounds: count the rounds once two more intervals have passed
      Thread.sleep(step.multipliedBy(2).toMillis());
      long[] roundsPerNode = roundsPerNode(nodes, roundsBefore);
      long rounds = Arrays.stream(roundsPerNode).sum();
      long maxRounds = Arrays.stream(roundsPerNode).max().orElse(0);
      long moved = sum(nodes, Rebalancer.MOVED_OUT) - movedBefore;
      System.out.printf(
          Locale.ROOT,
          "rebalance: %d s later %s; rounds per node %s: at most %d a giver, %d in all (target ≤ 3"
              + " a giver and ≤ 60 s)%n",
          step.multipliedBy(2).toSeconds(),
          Arrays.toString(counts(nodes)),
          Arrays.toString(roundsPerNode),
          maxRounds,
          rounds);
      System.out.printf(
          Locale.ROOT,
          "rebalance: runs moved %d, minimum %d, ratio %.2f (target ≤ 1.2)%n",
          moved,
          minimum,
          minimum == 0 ? 0.0 : (double) moved / minimum);
      Latencies pause = ticks.moved();
      Latencies gap = ticks.stayed();
      System.out.printf(
          Locale.ROOT,
          "rebalance: pause of a moved run %s (target p99 < 1 s); a step boundary that stayed %s%n",
          pause,
          gap);

      long churnMoved = 0;
      if (churnCycles > 0) {
        long churnBefore = sum(nodes, Rebalancer.MOVED_OUT);
        for (int cycle = 0; cycle < churnCycles; cycle++) {
          BenchCluster.Node churn = start(cluster, "bench-churn", ticks, runs, rebalance);
          Thread.sleep(churnEvery.toMillis());
          churn.node().drain().get(2, TimeUnit.MINUTES);
          churn.node().close();
          awaitActive(nodes, runs, Duration.ofMinutes(2));
        }
        churnMoved = sum(nodes, Rebalancer.MOVED_OUT) - churnBefore;
        System.out.printf(
            Locale.ROOT,
            "rebalance churn: a node joined for %d ms and drained, %d times: %d runs moved"
                + " to it by rebalancing (%.1f a cycle; each node's share of %d runs is %d)%n",
            churnEvery.toMillis(),
            churnCycles,
            churnMoved,
            (double) churnMoved / churnCycles,
            runs,
            runs / (nodes.size() + 1));
      }

      long doubles = doubleCompletions(cluster);
      System.out.printf(Locale.ROOT, "rebalance: step completions journaled twice: %d%n", doubles);
      if (doubles > 0) {
        throw new IllegalStateException(doubles + " step completions journaled twice");
      }
      return new Figures(
          toBalanced, rounds, maxRounds, moved, minimum, doubles, pause, gap, churnMoved);
    } finally {
      ticks.close();
    }
  }

  private static String flow() {
    StringBuilder yaml = new StringBuilder("name: ticking\nsteps:\n");
    for (int i = 0; i < STEPS; i++) {
      yaml.append("  - name: t").append(i).append("\n    capability: tick\n");
    }
    return yaml.toString();
  }

  private static BenchCluster.Node start(
      BenchCluster cluster, String nodeId, Ticks ticks, int runs, RebalanceConfig rebalance)
      throws Exception {
    return cluster.start(
        nodeId,
        Duration.ofSeconds(10),
        List.of(ticks.on(nodeId)),
        c -> c.withMaxConcurrentRuns(runs),
        RecoveryConfig.defaults(),
        rebalance);
  }

  /** Moves a perfect plan needs: every run above its node's share at {@code nodes} nodes. */
  static long minimumMoves(long[] counts, int nodes) {
    long total = Arrays.stream(counts).sum();
    long share = total / nodes;
    return Arrays.stream(counts).map(c -> Math.max(0, c - share)).sum();
  }

  private static long[] counts(List<BenchCluster.Node> nodes) {
    return nodes.stream().mapToLong(n -> n.node().engine().activeCount()).toArray();
  }

  /** Rounds each node gave runs in, less those it had given in before ({@code before}). */
  private static long[] roundsPerNode(List<BenchCluster.Node> nodes, long[] before) {
    long[] rounds = new long[nodes.size()];
    for (int i = 0; i < rounds.length; i++) {
      rounds[i] =
          nodes.get(i).metrics().counter(Rebalancer.ROUNDS).getCount()
              - (i < before.length ? before[i] : 0);
    }
    return rounds;
  }

  private static long sum(List<BenchCluster.Node> nodes, String counter) {
    return nodes.stream().mapToLong(n -> n.metrics().counter(counter).getCount()).sum();
  }

  private static void awaitActive(List<BenchCluster.Node> nodes, int runs, Duration limit)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (Arrays.stream(counts(nodes)).sum() < runs) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "only " + Arrays.toString(counts(nodes)) + " of " + runs + " runs active");
      }
      Thread.sleep(100);
    }
  }

  private static Duration awaitBalanced(
      List<BenchCluster.Node> nodes, int runs, Duration limit, long started)
      throws InterruptedException {
    long deadline = started + limit.toNanos();
    while (true) {
      long[] counts = counts(nodes);
      double share = (double) runs / nodes.size();
      if (Arrays.stream(counts).allMatch(c -> Math.abs(c - share) <= share * BAND)) {
        return Duration.ofNanos(System.nanoTime() - started);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "not balanced after " + limit + ": " + Arrays.toString(counts));
      }
      Thread.sleep(100);
    }
  }

  private static long doubleCompletions(BenchCluster cluster) throws Exception {
    return cluster
        .row(
            "SELECT count(*) FROM (SELECT run_id, event ->> 'step' FROM journal"
                + " WHERE event ->> 'type' = 'StepCompleted'"
                + " GROUP BY 1, 2 HAVING count(*) > 1) twice")[0];
  }
}

package io.baton.node.bench;

import io.baton.capability.Capability;
import io.baton.capability.StepOutcome;
import io.baton.engine.EngineIo;
import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.Checkpoint;
import io.baton.journal.JournalCodec;
import io.baton.lease.AcquireResult;
import io.baton.node.bench.RebalanceBenchmark.Latencies;
import io.baton.recovery.RecoveryConfig;
import io.baton.retention.HousekeepingConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * One run of any length (issue 15): a single {@code repeat} of a noop on PostgreSQL and etcd grows
 * to {@code entries} step completions. At a hundredth, a tenth and all of it, the run is handed off
 * ({@code drain}, as SIGTERM does) and failed over ({@code kill -9}: the survivor's failure
 * detector revokes the dead node's lease) {@code trials} times each, between two nodes in one JVM
 * (a fresh one replaces each departed node). Prints, per mark, the claim-to-first-step time (from
 * the adopter's successful lease acquire for the run to its first iteration on the adopter: the
 * acquire, the replay from the newest checkpoint, the claim's append and the step's start) and the
 * departure-to-first-step time, and the run's rows in the hot journal and the archive.
 */
final class LongRunBenchmark {
  static final String FLOW_NAME = "longrun";

  /** Untimed hand-overs of each kind before the first mark, to warm the JVM up. */
  private static final int WARM_UP = 4;

  /** How long a new standby is up before the owner departs. */
  private static final Duration SETTLE = Duration.ofSeconds(1);

  private LongRunBenchmark() {}

  /** What one mark measured. */
  record Mark(long completions, Rows atMark, Rows afterTrials, Trials handoff, Trials kill) {}

  /**
   * One kind of hand-over at one mark: claim to first step, the lease acquire it starts with, and
   * departure to first step.
   */
  record Trials(Latencies claimToStep, Latencies acquire, Latencies load, Latencies total) {
    @Override
    public String toString() {
      return "claim to first step "
          + claimToStep
          + " (target p99 < 200 ms); of it the lease acquire "
          + acquire
          + " and the load (checkpoint + entries after it) "
          + load
          + "; departure to first step "
          + total;
    }
  }

  /** Collects the trials of one kind. */
  private static final class TrialTimes {
    private final List<Long> claimToStep = new ArrayList<>();
    private final List<Long> acquire = new ArrayList<>();
    private final List<Long> load = new ArrayList<>();
    private final List<Long> total = new ArrayList<>();

    void add(Handover handover) {
      claimToStep.add(handover.firstStep() - handover.claimed());
      acquire.add(handover.acquired() - handover.claimed());
      load.add(handover.load());
      total.add(handover.firstStep() - handover.departed());
    }

    Trials figures() {
      return new Trials(
          Latencies.of(claimToStep),
          Latencies.of(acquire),
          Latencies.of(load),
          Latencies.of(total));
    }
  }

  /**
   * When (nanoTime) one hand-over's owner departed, the claim asked for and got the lease, and the
   * first step ran; how long the claim's load took.
   */
  record Handover(long departed, long claimed, long acquired, long firstStep, long load) {}

  record Figures(List<Mark> marks) {}

  /**
   * The run's iterations, and on which node each adopter first ran one: the capability {@code
   * tick}, a noop that counts.
   */
  static final class Loop {
    private final AtomicLong iterations = new AtomicLong();
    private final Map<String, Long> firstStep = new ConcurrentHashMap<>();

    Capability on(String nodeId) {
      return BenchCluster.capability(
          "tick",
          invocation -> {
            firstStep.putIfAbsent(nodeId, System.nanoTime());
            iterations.incrementAndGet();
            return CompletableFuture.completedFuture(
                StepOutcome.completed(JournalCodec.mapper().createObjectNode().put("done", false)));
          });
    }

    long iterations() {
      return iterations.get();
    }
  }

  /**
   * When each node's engine asked for the lease of a run it then got (the claim's start), and when
   * it got it.
   */
  static final class Acquires {
    private final Map<String, long[]> acquired = new ConcurrentHashMap<>();
    private final Map<String, Long> loads = new ConcurrentHashMap<>();

    EngineIo observe(String nodeId, EngineIo io) {
      return new EngineIo() {
        @Override
        public CompletableFuture<AppendResult> append(AppendRequest request) {
          return io.append(request);
        }

        @Override
        public CompletableFuture<Void> checkpoint(UUID root, long token, Checkpoint checkpoint) {
          return io.checkpoint(root, token, checkpoint);
        }

        @Override
        public CompletableFuture<Map<UUID, AcquireResult>> acquire(List<UUID> runIds) {
          long asked = System.nanoTime();
          return io.acquire(runIds)
              .thenApply(
                  results -> {
                    if (results.values().stream()
                        .anyMatch(r -> r instanceof AcquireResult.Acquired)) {
                      acquired.putIfAbsent(nodeId, new long[] {asked, System.nanoTime()});
                    }
                    return results;
                  });
        }

        @Override
        public CompletableFuture<Set<UUID>> release(List<UUID> runIds) {
          return io.release(runIds);
        }

        @Override
        public long nodeToken() {
          return io.nodeToken();
        }

        @Override
        public CompletableFuture<Void> hintPending() {
          return io.hintPending();
        }

        @Override
        public <T> CompletableFuture<T> call(String what, Supplier<T> work) {
          if (!what.startsWith("load") || !acquired.containsKey(nodeId)) {
            return io.call(what, work);
          }
          // the claim's replay: the checkpoint and the hot entries after it
          return io.call(
              what,
              () -> {
                long started = System.nanoTime();
                T loaded = work.get();
                loads.putIfAbsent(nodeId, System.nanoTime() - started);
                return loaded;
              });
        }

        @Override
        public void close() {
          io.close();
        }
      };
    }
  }

  static String flow(long max) {
    return "name: "
        + FLOW_NAME
        + "\nsteps:\n  - name: loop\n    capability: tick\n"
        + "    repeat: {until: \"{{ steps.loop.output.done }}\", max: "
        + max
        + "}\n";
  }

  /**
   * @param entries step completions the run grows to; marks at a hundredth, a tenth and all
   * @param trials hand-offs and as many kills at each mark
   * @param checkpointEntries {@code execution.checkpointEntries} of every node
   */
  static Figures run(
      long entries,
      int trials,
      Duration ttl,
      int checkpointEntries,
      HousekeepingConfig housekeeping)
      throws Exception {
    Loop loop = new Loop();
    Acquires acquires = new Acquires();
    List<Mark> marks = new ArrayList<>();
    try (BenchCluster cluster = new BenchCluster(housekeeping, acquires::observe)) {
      Nodes nodes = new Nodes(cluster, loop, ttl, checkpointEntries);
      BenchCluster.Node owner = nodes.next();
      BenchCluster.Node standby = nodes.next();
      // the run goes on growing during each mark's trials (at an idle machine's pace, tens of
      // thousands of iterations), so its bound is no multiple of the target: it must never end
      owner.node().orchestrator().applyFlow(flow(Integer.MAX_VALUE), "longrun.yaml");
      UUID run =
          owner
              .node()
              .orchestrator()
              .submit(FLOW_NAME, JournalCodec.mapper().createObjectNode(), null)
              .run()
              .runId();
      System.out.printf(
          Locale.ROOT,
          "longrun: one run, a repeat of a noop, to %d step completions; checkpoint every %d"
              + " entries, archive batch %d every %d ms; %d hand-offs and %d kill -9 per mark,"
              + " lease TTL %d ms%n",
          entries,
          checkpointEntries,
          housekeeping.archiveBatchSize(),
          housekeeping.archiveInterval().toMillis(),
          trials,
          trials,
          ttl.toMillis());
      Handovers handovers = new Handovers(cluster, nodes, loop, acquires, owner, standby);
      // a cold JVM's first hand-overs are slower; they say nothing about the run's length
      for (int i = 0; i < WARM_UP; i++) {
        handovers.next(i % 2 == 1);
      }
      long grownFrom = System.nanoTime();
      for (long target :
          new long[] {Math.max(1, entries / 100), Math.max(1, entries / 10), entries}) {
        awaitIterations(loop, target);
        long reached = loop.iterations();
        // over the whole run, trials included: the run grows while it is handed over
        double rate = reached / ((System.nanoTime() - grownFrom) / 1e9);
        Rows atMark = rows(cluster, run);
        TrialTimes handoffs = new TrialTimes();
        TrialTimes kills = new TrialTimes();
        for (int i = 0; i < 2 * trials; i++) {
          boolean kill = i % 2 == 1;
          (kill ? kills : handoffs).add(handovers.next(kill));
        }
        Rows afterTrials = rows(cluster, run);
        Mark mark = new Mark(reached, atMark, afterTrials, handoffs.figures(), kills.figures());
        marks.add(mark);
        print(mark, rate);
      }
      return new Figures(marks);
    }
  }

  private static void print(Mark mark, double rate) {
    System.out.printf(
        Locale.ROOT,
        "longrun at %,d step completions (%.0f a second since the start): journal seq %,d, hot journal rows %,d,"
            + " archived %,d, newest checkpoint at seq %,d; after the trials: seq %,d, hot %,d,"
            + " archived %,d, checkpoint at %,d%n"
            + "  hand-off (drain): %s%n"
            + "  kill -9:          %s%n",
        mark.completions(),
        rate,
        mark.atMark().latestSeq(),
        mark.atMark().hot(),
        mark.atMark().archived(),
        mark.atMark().checkpointSeq(),
        mark.afterTrials().latestSeq(),
        mark.afterTrials().hot(),
        mark.afterTrials().archived(),
        mark.afterTrials().checkpointSeq(),
        mark.handoff(),
        mark.kill());
  }

  /**
   * The run going from node to node: the owner departs (drained, as on SIGTERM, or killed), the
   * standby adopts the run, a fresh node becomes the standby.
   */
  private static final class Handovers {
    private final BenchCluster cluster;
    private final Nodes nodes;
    private final Loop loop;
    private final Acquires acquires;
    private BenchCluster.Node owner;
    private BenchCluster.Node standby;

    Handovers(
        BenchCluster cluster,
        Nodes nodes,
        Loop loop,
        Acquires acquires,
        BenchCluster.Node owner,
        BenchCluster.Node standby) {
      this.cluster = cluster;
      this.nodes = nodes;
      this.loop = loop;
      this.acquires = acquires;
      this.owner = owner;
      this.standby = standby;
    }

    /** One hand-over, timed. */
    Handover next(boolean kill) throws Exception {
      // the standby started moments ago and may still be opening its pool's connections; in a
      // cluster the adopter has been up for a while
      Thread.sleep(SETTLE.toMillis());
      long departed = System.nanoTime();
      if (kill) {
        owner.kill();
      } else {
        owner.node().drain().get(2, TimeUnit.MINUTES);
      }
      String adopter = standby.node().engine().nodeId();
      long firstStep = awaitFirstStep(loop, adopter, Duration.ofMinutes(2));
      long[] claimed = acquires.acquired.get(adopter);
      if (claimed == null) {
        throw new IllegalStateException(adopter + " ran the run without acquiring its lease");
      }
      cluster.retire(owner);
      owner = standby;
      standby = nodes.next();
      return new Handover(
          departed, claimed[0], claimed[1], firstStep, acquires.loads.getOrDefault(adopter, 0L));
    }
  }

  /** Starts the nodes: each with a new id, so each adopter's first step is its own. */
  private static final class Nodes {
    private final BenchCluster cluster;
    private final Loop loop;
    private final Duration ttl;
    private final int checkpointEntries;
    private int started;

    Nodes(BenchCluster cluster, Loop loop, Duration ttl, int checkpointEntries) {
      this.cluster = cluster;
      this.loop = loop;
      this.ttl = ttl;
      this.checkpointEntries = checkpointEntries;
    }

    BenchCluster.Node next() throws Exception {
      String nodeId = "bench-long-" + started++;
      return cluster.start(
          nodeId,
          ttl,
          List.of(loop.on(nodeId)),
          c -> c.withCheckpoints(checkpointEntries, c.checkpointBytes()),
          RecoveryConfig.defaults());
    }
  }

  private static void awaitIterations(Loop loop, long target) throws InterruptedException {
    long lastSeen = loop.iterations();
    long progressAt = System.nanoTime();
    while (loop.iterations() < target) {
      long now = loop.iterations();
      if (now != lastSeen) {
        lastSeen = now;
        progressAt = System.nanoTime();
      } else if (System.nanoTime() - progressAt > TimeUnit.MINUTES.toNanos(1)) {
        throw new IllegalStateException("the run stopped at " + now + " iterations");
      }
      Thread.sleep(200);
    }
  }

  private static long awaitFirstStep(Loop loop, String nodeId, Duration limit)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!loop.firstStep.containsKey(nodeId)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(nodeId + " never ran the run after " + limit);
      }
      Thread.sleep(1);
    }
    return loop.firstStep.get(nodeId);
  }

  /** The run's journal: latest seq, rows in the hot table and the archive, the checkpoint's seq. */
  record Rows(long latestSeq, long hot, long archived, long checkpointSeq) {}

  static Rows rows(BenchCluster cluster, UUID root) throws Exception {
    long[] row =
        cluster.row(
            "SELECT (SELECT latest_seq FROM runs WHERE id = ?),"
                + " (SELECT count(*) FROM journal WHERE root_run_id = ?),"
                + " (SELECT count(*) FROM journal_archive WHERE root_run_id = ?),"
                + " (SELECT coalesce(max(seq), 0) FROM journal_checkpoints WHERE root_run_id = ?)",
            root,
            root,
            root,
            root);
    return new Rows(row[0], row[1], row[2], row[3]);
  }
}

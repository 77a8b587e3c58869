package io.baton.node.bench;

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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Latency of one run at a time on an idle node, PostgreSQL and etcd local: the bare fenced append
 * (one client, one entry) measured in the same sitting, then 3-step noop runs submitted one after
 * the other. Step-to-step and created-to-completed come from the journal's own timestamps (the
 * engine's clock); submit-to-done is what the client sees. Prints percentiles; asserts nothing.
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

  /** Runs the benchmark, prints it, and returns the step-to-step figures. */
  static Percentiles run(int runs) throws Exception {
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

      Map<UUID, CompletableFuture<Void>> finished = new ConcurrentHashMap<>();
      node.node()
          .engine()
          .addListener(
              event -> {
                if (event instanceof RunEvent.StatusChanged changed
                    && changed.status().isTerminal()) {
                  CompletableFuture<Void> done = finished.remove(changed.runId());
                  if (done != null) {
                    done.complete(null);
                  }
                }
              });
      int warmup = Math.min(500, runs / 4);
      List<Long> stepToStep = new ArrayList<>();
      List<Long> createdToCompleted = new ArrayList<>();
      List<Long> firstStep = new ArrayList<>();
      List<Long> submitToDone = new ArrayList<>();
      for (int i = 0; i < warmup + runs; i++) {
        long started = System.nanoTime();
        CompletableFuture<Void> done = new CompletableFuture<>();
        UUID submitted =
            node.node()
                .orchestrator()
                .submitAsync("quick", JournalCodec.mapper().createObjectNode(), null, null)
                .thenApply(result -> result.run().runId())
                .get(30, TimeUnit.SECONDS);
        finished.put(submitted, done);
        if (node.node().orchestrator().find(submitted).status().isTerminal()) {
          finished.remove(submitted);
        } else {
          done.get(30, TimeUnit.SECONDS);
        }
        long took = System.nanoTime() - started;
        RunStatus status = node.node().orchestrator().find(submitted).status();
        if (status != RunStatus.SUCCEEDED) {
          throw new IllegalStateException("run " + submitted + " ended " + status);
        }
        if (i < warmup) {
          continue;
        }
        submitToDone.add(took);
        timings(
            node.node().orchestrator().journal(submitted),
            stepToStep,
            createdToCompleted,
            firstStep);
      }
      System.out.println(
          "runs one at a time, 3 noop steps, " + runs + " runs after " + warmup + " warm-up:");
      System.out.println("  step to step (journal)         " + Percentiles.of(stepToStep));
      System.out.println("  created to first step (journal) " + Percentiles.of(firstStep));
      System.out.println("  created to completed (journal)  " + Percentiles.of(createdToCompleted));
      System.out.println("  submit to done (client)         " + Percentiles.of(submitToDone));
      return Percentiles.of(stepToStep);
    }
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

package io.baton.node.bench;

import io.baton.engine.RunEvent;
import io.baton.journal.JournalCodec;
import io.baton.recovery.RecoveryConfig;
import io.baton.retention.HousekeepingConfig;
import io.baton.retention.RetentionSweeper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * A database that stays small (issue 15): {@code runs} runs of {@code steps} step completions each
 * (a {@code repeat} of a noop that ends on its last iteration), {@code window} at a time on one
 * node on PostgreSQL and etcd, under a flow whose {@code retention} is short. Samples, every {@code
 * sampleEvery}, the size on disk of the tables a run lives in (runs, journal, journal_archive, its
 * completion keys and deleted trees, journal_checkpoints, run_signals, blobs, with their indexes
 * and TOAST) and their live rows, while the runs go and after the last one finished until retention
 * deleted every run. Prints each sample and the peak against the size once retention caught up.
 */
final class RetentionBenchmark {
  static final String FLOW_NAME = "retained";
  private static final List<String> TABLES =
      List.of(
          "runs",
          "journal",
          "journal_archive",
          "deleted_trees",
          "journal_checkpoints",
          "run_signals",
          "blobs");

  private RetentionBenchmark() {}

  /** One sample: seconds since the start, runs finished, live and dead rows, bytes on disk. */
  record Sample(
      double seconds,
      long finished,
      long runRows,
      long journalRows,
      long archivedRows,
      long deadRows,
      long bytes) {
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%6.1f s  finished %,7d  runs rows %,7d  journal rows %,9d  archived %,9d  dead %,9d"
              + "  %,7d KiB",
          seconds,
          finished,
          runRows,
          journalRows,
          archivedRows,
          deadRows,
          bytes >> 10);
    }
  }

  record Figures(List<Sample> samples, long deleted, Duration caughtUp) {
    long peakBytes() {
      return samples.stream().mapToLong(Sample::bytes).max().orElse(0);
    }

    Sample last() {
      return samples.get(samples.size() - 1);
    }
  }

  static String flow(int steps, Duration retention) {
    return "name: "
        + FLOW_NAME
        + "\nretention: "
        + retention.toMillis()
        + "ms\nsteps:\n  - name: loop\n    capability: noop\n"
        + "    params: {n: \"{{ run.iteration }}\"}\n"
        + "    repeat: {until: \"{{ steps.loop.output.n }} == "
        + steps
        + "\", max: "
        + steps
        + "}\n";
  }

  static Figures run(
      int runs,
      int steps,
      int window,
      Duration retention,
      Duration sampleEvery,
      Duration vacuumEvery,
      HousekeepingConfig housekeeping)
      throws Exception {
    try (BenchCluster cluster = new BenchCluster(housekeeping, (nodeId, io) -> io)) {
      BenchCluster.Node node =
          cluster.start(
              "bench-retention",
              Duration.ofSeconds(10),
              List.of(),
              c -> c.withMaxConcurrentRuns(window * 2),
              RecoveryConfig.defaults());
      node.node().orchestrator().applyFlow(flow(steps, retention), "retained.yaml");
      System.out.printf(
          Locale.ROOT,
          "retention: %,d runs of %,d step completions (a repeat of a noop), %d at a time, flow"
              + " retention %d ms; retention batch %d every %d ms, archive batch %d every %d ms;"
              + " size of %s with indexes and TOAST%n",
          runs,
          steps,
          window,
          retention.toMillis(),
          housekeeping.retentionBatchSize(),
          housekeeping.retentionInterval().toMillis(),
          housekeeping.archiveBatchSize(),
          housekeeping.archiveInterval().toMillis(),
          String.join(", ", TABLES));
      long started = System.nanoTime();
      AtomicLong finished = new AtomicLong();
      List<Sample> samples = new ArrayList<>();
      Thread submitter =
          new Thread(() -> submit(node, runs, window, finished), "bench-retention-submitter");
      submitter.start();
      long deadline = started + TimeUnit.MINUTES.toNanos(60);
      Vacuum vacuum = Vacuum.of(cluster, vacuumEvery);
      while (submitter.isAlive() || sample(cluster, started, finished).runRows() > 0) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("retention did not catch up within an hour");
        }
        vacuum.whenDue();
        Sample sample = sample(cluster, started, finished);
        samples.add(sample);
        System.out.println("retention: " + sample);
        Thread.sleep(sampleEvery.toMillis());
      }
      submitter.join();
      Duration caughtUp = Duration.ofNanos(System.nanoTime() - started);
      Sample last = sample(cluster, started, finished);
      samples.add(last);
      long deleted = node.metrics().counter(RetentionSweeper.DELETED).getCount();
      System.out.println("retention: " + last);
      Figures figures = new Figures(samples, deleted, caughtUp);
      System.out.printf(
          Locale.ROOT,
          "retention: %,d runs finished, %,d deleted by retention; every run gone %.1f s after the"
              + " start; tables peaked at %,d KiB and hold %,d KiB now (%,d journal rows, %,d"
              + " archived)%n",
          finished.get(),
          deleted,
          caughtUp.toMillis() / 1000.0,
          figures.peakBytes() >> 10,
          last.bytes() >> 10,
          last.journalRows(),
          last.archivedRows());
      if (finished.get() != runs) {
        throw new IllegalStateException(finished.get() + " of " + runs + " runs finished");
      }
      return figures;
    }
  }

  /**
   * Stands in for autovacuum where the server has it off (this project's machine does): without a
   * vacuum, PostgreSQL never reuses the space of deleted rows, whatever retention deletes.
   */
  private static final class Vacuum {
    private final BenchCluster cluster;
    private final long everyNanos;
    private long last = System.nanoTime();

    private Vacuum(BenchCluster cluster, Duration every) {
      this.cluster = cluster;
      this.everyNanos = every.toNanos();
    }

    static Vacuum of(BenchCluster cluster, Duration every) throws Exception {
      boolean autovacuum =
          cluster.row("SELECT (current_setting('autovacuum') = 'on')::int")[0] == 1;
      System.out.println(
          autovacuum
              ? "retention: the server runs autovacuum"
              : "retention: the server has autovacuum off; the benchmark runs VACUUM on the tables"
                  + " every "
                  + every.toSeconds()
                  + " s instead");
      return new Vacuum(cluster, autovacuum ? Duration.ofDays(365) : every);
    }

    void whenDue() throws Exception {
      if (System.nanoTime() - last >= everyNanos) {
        cluster.execute("VACUUM " + String.join(", ", TABLES));
        last = System.nanoTime();
      }
    }
  }

  /** Submits the runs, {@code window} unfinished at a time, counting those that finished. */
  private static void submit(BenchCluster.Node node, int runs, int window, AtomicLong finished) {
    Semaphore open = new Semaphore(window);
    CountDownLatch done = new CountDownLatch(runs);
    node.node()
        .engine()
        .addListener(
            event -> {
              if (event instanceof RunEvent.StatusChanged changed
                  && changed.status().isTerminal()) {
                finished.incrementAndGet();
                open.release();
                done.countDown();
              }
            });
    try {
      for (int i = 0; i < runs; i++) {
        open.acquire();
        node.node()
            .orchestrator()
            .submitAsync(
                FLOW_NAME, JournalCodec.mapper().createObjectNode().put("i", i), null, null);
      }
      if (!done.await(30, TimeUnit.MINUTES)) {
        throw new IllegalStateException(done.getCount() + " runs did not finish");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Sample sample(BenchCluster cluster, long started, AtomicLong finished)
      throws Exception {
    String bytes =
        TABLES.stream()
            .map(table -> "pg_total_relation_size('" + table + "')")
            .collect(Collectors.joining(" + "));
    long[] row =
        cluster.row(
            "SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM journal),"
                + " (SELECT count(*) FROM journal_archive),"
                + " (SELECT coalesce(sum(n_dead_tup), 0) FROM pg_stat_user_tables), "
                + bytes);
    return new Sample(
        (System.nanoTime() - started) / 1e9,
        finished.get(),
        row[0],
        row[1],
        row[2],
        row[3],
        row[4]);
  }
}

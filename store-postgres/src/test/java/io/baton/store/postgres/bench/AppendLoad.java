package io.baton.store.postgres.bench;

import io.baton.journal.AppendRequest;
import io.baton.journal.ClaimReason;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.GroupCommitter;
import io.baton.journal.JournalEntry;
import io.baton.journal.JournalEvent;
import io.baton.journal.JournalFixtures;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunCompleted;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.journal.RunStatusChanged;
import io.baton.journal.StepCompleted;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Concurrent runs appending one step completion at a time, each waiting for its append before the
 * next, as the engine's runs do: either straight to the journal ({@code append}) or through a
 * {@link GroupCommitter}. Counts appends and their latencies; for the benchmark and its smoke test.
 */
final class AppendLoad {
  /** What a measurement saw; {@code appends} counts step completions. */
  record Result(long appends, double seconds, double meanNanos, long p99Nanos, double meanBatch) {
    double perSecond() {
      return appends / seconds;
    }
  }

  /** How the runs' appends reach the journal. */
  interface Path extends AutoCloseable {
    void append(AppendRequest request) throws Exception;

    /** Average requests per batch, or 1 for direct appends. */
    double meanBatch();

    @Override
    default void close() {}
  }

  static Path direct(ExecutionJournal journal) {
    return new Path() {
      @Override
      public void append(AppendRequest request) {
        journal.append(request);
      }

      @Override
      public double meanBatch() {
        return 1;
      }
    };
  }

  static Path grouped(ExecutionJournal journal, int maxBatch, int lanes) {
    GroupCommitter committer =
        new GroupCommitter(journal, maxBatch, Duration.ZERO, lanes, "bench-committer");
    AtomicLong batches = new AtomicLong();
    AtomicLong requests = new AtomicLong();
    committer.onBatch(
        stats -> {
          batches.incrementAndGet();
          requests.addAndGet(stats.requests());
        });
    return new Path() {
      @Override
      public void append(AppendRequest request) throws Exception {
        committer.submit(request).get().throwIfFailed();
      }

      @Override
      public double meanBatch() {
        return batches.get() == 0 ? 0 : (double) requests.get() / batches.get();
      }

      @Override
      public void close() {
        committer.close();
      }
    };
  }

  private final ExecutionJournal journal;
  private final List<Writer> writers = new ArrayList<>();

  /** Creates {@code runs} run trees, claimed under token 1, ready to append at seq 3. */
  AppendLoad(ExecutionJournal journal, int runs) {
    this(journal, runs, false);
  }

  /**
   * @param lifecycles whether each run, instead of appending step completions forever, goes through
   *     whole lives of a 3-step flow: created, claimed and started (one append), three step
   *     completions, completed; then the next run starts
   */
  AppendLoad(ExecutionJournal journal, int runs, boolean lifecycles) {
    this.journal = journal;
    List<AppendRequest> creations = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      JournalFixtures root = JournalFixtures.newRoot();
      creations.add(root.createClaimed("bench-node", 1));
      writers.add(new Writer(root.root(), lifecycles));
    }
    for (int from = 0; from < creations.size(); from += 256) {
      journal
          .appendAll(creations.subList(from, Math.min(creations.size(), from + 256)))
          .forEach(result -> result.throwIfFailed());
    }
  }

  List<UUID> roots() {
    return writers.stream().map(w -> w.root).toList();
  }

  /** Appends for {@code warmUp}, then measures for {@code measure}. */
  Result runFor(Path path, Duration warmUp, Duration measure) throws InterruptedException {
    run(path, warmUp, Long.MAX_VALUE);
    return run(path, measure, Long.MAX_VALUE);
  }

  /** Appends until each run has appended {@code perRun} entries. */
  Result runCount(Path path, long perRun) throws InterruptedException {
    return run(path, Duration.ofHours(1), perRun);
  }

  private Result run(Path path, Duration duration, long perRun) throws InterruptedException {
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    List<long[]> latencies = new ArrayList<>();
    AtomicLong appends = new AtomicLong();
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    for (Writer writer : writers) {
      long[] samples = new long[1 << 16];
      latencies.add(samples);
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                  for (long i = 0; i < perRun && !stop.get(); i++) {
                    long begin = System.nanoTime();
                    AppendRequest request = writer.next();
                    path.append(request);
                    samples[(int) (i & (samples.length - 1))] = System.nanoTime() - begin;
                    writer.written++;
                    if (request.entries().get(0).event() instanceof StepCompleted) {
                      appends.incrementAndGet();
                    }
                  }
                } catch (Throwable e) {
                  failures.add(e);
                }
              },
              "bench-run");
      threads.add(thread);
      thread.start();
    }
    long begin = System.nanoTime();
    start.countDown();
    long deadline = begin + duration.toNanos();
    for (Thread thread : threads) {
      long left = deadline - System.nanoTime();
      if (left > 0) {
        thread.join(Math.max(1, left / 1_000_000));
      }
      if (System.nanoTime() >= deadline) {
        stop.set(true);
      }
    }
    stop.set(true);
    for (Thread thread : threads) {
      thread.join();
    }
    double seconds = (System.nanoTime() - begin) / 1e9;
    if (!failures.isEmpty()) {
      throw new IllegalStateException("an append failed", failures.get(0));
    }
    long[] all = latencies.stream().flatMapToLong(Arrays::stream).filter(n -> n > 0).toArray();
    Arrays.sort(all);
    double mean = Arrays.stream(all).average().orElse(0);
    return new Result(appends.get(), seconds, mean, percentile(all, 0.99), path.meanBatch());
  }

  private static long percentile(long[] sorted, double fraction) {
    return sorted.length == 0
        ? 0
        : sorted[(int) Math.min(sorted.length - 1, sorted.length * fraction)];
  }

  /** How many entries each run has appended since it was created. */
  List<Long> written() {
    return writers.stream().map(w -> w.written).toList();
  }

  ExecutionJournal journal() {
    return journal;
  }

  /**
   * One run's next append: a step completion, numbered like the engine's; or, in lifecycle mode,
   * the next stage of a 3-step run's life.
   */
  private static final class Writer {
    private static final Instant T0 = Instant.parse("2026-03-01T10:15:30.123456Z");

    UUID root;
    long written;
    private final boolean lifecycles;
    private long nextSeq = 3;
    private int stage = 1;

    Writer(UUID root, boolean lifecycles) {
      this.root = root;
      this.lifecycles = lifecycles;
    }

    AppendRequest next() {
      if (lifecycles && stage == 4) {
        stage = 0;
        return request(RunCompleted.succeeded(JournalFixtures.json("done", true)));
      }
      if (lifecycles && stage == 0) {
        stage = 1;
        root = UUID.randomUUID();
        nextSeq = 1;
        return new AppendRequest(
            root,
            1,
            List.of(
                entry(RunCreated.root("bench", "hash-bench", JournalFixtures.json("n", 1))),
                entry(new RunClaimed("bench-node", 1, null, ClaimReason.SUBMIT)),
                entry(RunStatusChanged.to(RunStatus.PENDING, RunStatus.RUNNING, "started"))));
      }
      stage++;
      long seq = nextSeq;
      return request(new StepCompleted("step-" + seq, 1, JournalFixtures.json("n", (int) seq), T0));
    }

    private AppendRequest request(JournalEvent event) {
      return new AppendRequest(root, 1, List.of(entry(event)));
    }

    private JournalEntry entry(JournalEvent event) {
      long seq = nextSeq++;
      return new JournalEntry(root, root, seq, T0.plusMillis(seq), event);
    }
  }
}

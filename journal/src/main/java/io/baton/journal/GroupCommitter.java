package io.baton.journal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit in front of any {@link ExecutionJournal}: appends submitted by many runs are
 * gathered into batches, bounded by {@code maxBatch} requests and a {@code linger} wait, and each
 * batch is written with one {@link ExecutionJournal#appendAll} call, where a fenced-out request
 * fails alone (PostgreSQL writes a batch in at most two transactions: one statement for plain step
 * appends, one transaction for the rest; each request is atomic either way).
 *
 * <p>Requests of one root always go to the same committer thread, so they are written in the order
 * they were submitted. A batch that fails as a whole (the store is unavailable) completes each of
 * its futures exceptionally; callers resubmit the same request, which is safe because appends are
 * idempotent. Thread-safe; {@link #close()} is idempotent and fails what is still queued.
 */
public final class GroupCommitter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(GroupCommitter.class);

  public static final int DEFAULT_MAX_BATCH = 256;
  public static final Duration DEFAULT_LINGER = Duration.ZERO;

  private final ExecutionJournal journal;
  private final int maxBatch;
  private final long lingerNanos;
  private final List<Lane> lanes = new ArrayList<>();
  private final AtomicReference<Consumer<BatchStats>> observer = new AtomicReference<>(s -> {});
  private volatile boolean closed;

  /** The journal this committer writes to (for the rare writes that are not appends). */
  public ExecutionJournal journal() {
    return journal;
  }

  /** What one committed batch looked like, for metrics. */
  public record BatchStats(int requests, int entries, long nanos, boolean failed) {}

  private record Pending(AppendRequest request, CompletableFuture<AppendResult> result) {}

  public GroupCommitter(
      ExecutionJournal journal, int maxBatch, Duration linger, int threads, String name) {
    if (maxBatch < 1 || threads < 1) {
      throw new IllegalArgumentException("maxBatch and threads must be positive");
    }
    this.journal = journal;
    this.maxBatch = maxBatch;
    this.lingerNanos = linger.toNanos();
    for (int i = 0; i < threads; i++) {
      Lane lane = new Lane();
      Thread thread = new Thread(lane::run, "baton-" + name + "-" + (i + 1));
      thread.setDaemon(true);
      lane.thread = thread;
      lanes.add(lane);
      thread.start();
    }
  }

  public GroupCommitter(ExecutionJournal journal) {
    this(journal, DEFAULT_MAX_BATCH, DEFAULT_LINGER, 1, "journal-committer");
  }

  /** Receives statistics of every batch (on a committer thread; must be quick). */
  public void onBatch(Consumer<BatchStats> statsObserver) {
    observer.set(statsObserver);
  }

  /** Queues the request; the future completes once its batch is written (or failed). */
  public CompletableFuture<AppendResult> submit(AppendRequest request) {
    CompletableFuture<AppendResult> result = new CompletableFuture<>();
    if (closed) {
      result.completeExceptionally(new JournalException("the group committer is closed", null));
      return result;
    }
    Lane lane = lanes.get(Math.floorMod(request.rootRunId().hashCode(), lanes.size()));
    lane.queue.add(new Pending(request, result));
    return result;
  }

  @Override
  public void close() {
    closed = true;
    for (Lane lane : lanes) {
      lane.thread.interrupt();
    }
    for (Lane lane : lanes) {
      try {
        lane.thread.join(TimeUnit.SECONDS.toMillis(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      failAll(lane.drainAll(), new JournalException("the group committer closed", null));
    }
  }

  private final class Lane {
    final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    final AtomicLong batches = new AtomicLong();
    Thread thread;

    void run() {
      while (!closed) {
        List<Pending> batch;
        try {
          batch = nextBatch();
        } catch (InterruptedException e) {
          return;
        }
        commit(batch);
      }
    }

    private List<Pending> nextBatch() throws InterruptedException {
      List<Pending> batch = new ArrayList<>();
      batch.add(queue.take());
      queue.drainTo(batch, maxBatch - 1);
      long deadline = System.nanoTime() + lingerNanos;
      while (batch.size() < maxBatch && lingerNanos > 0) {
        long left = deadline - System.nanoTime();
        Pending more = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
        if (more == null) {
          break;
        }
        batch.add(more);
        queue.drainTo(batch, maxBatch - batch.size());
      }
      return batch;
    }

    private void commit(List<Pending> batch) {
      List<AppendRequest> requests = new ArrayList<>(batch.size());
      int entries = 0;
      for (Pending pending : batch) {
        requests.add(pending.request());
        entries += pending.request().entries().size();
      }
      long start = System.nanoTime();
      try {
        List<AppendResult> results = journal.appendAll(requests);
        report(new BatchStats(batch.size(), entries, System.nanoTime() - start, false));
        for (int i = 0; i < batch.size(); i++) {
          batch.get(i).result().complete(results.get(i));
        }
      } catch (Throwable failure) {
        report(new BatchStats(batch.size(), entries, System.nanoTime() - start, true));
        log.warn("journal batch of {} appends failed: {}", batch.size(), failure.toString());
        failAll(batch, failure);
      }
      batches.incrementAndGet();
    }

    List<Pending> drainAll() {
      List<Pending> rest = new ArrayList<>();
      queue.drainTo(rest);
      return rest;
    }
  }

  private void report(BatchStats stats) {
    try {
      observer.get().accept(stats);
    } catch (RuntimeException e) {
      log.warn("batch observer failed", e);
    }
  }

  private static void failAll(List<Pending> batch, Throwable failure) {
    for (Pending pending : batch) {
      pending.result().completeExceptionally(failure);
    }
  }
}

package io.baton.event;

import io.baton.store.CloudEvent;
import io.baton.time.Futures;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Gathers events received at the same time into batches, as a group committer gathers appends:
 * while {@code maxInFlight} batches are being stored and triggered, newly received events wait and
 * go together in the next batch (one transaction to store them, one read of the flows, one mark),
 * so the cost per event falls as the load rises, and a lone event goes at once. Thread-safe.
 */
final class IngestBatcher {
  private record Waiting(CloudEvent event, CompletableFuture<Ingestion> answer) {}

  private final ConcurrentLinkedQueue<Waiting> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final int maxInFlight;
  private final int maxBatch;
  private final Function<List<CloudEvent>, CompletableFuture<List<Ingestion>>> ingest;

  /**
   * @param ingest stores and triggers a batch; answers in the batch's order
   */
  IngestBatcher(
      int maxInFlight,
      int maxBatch,
      Function<List<CloudEvent>, CompletableFuture<List<Ingestion>>> ingest) {
    this.maxInFlight = maxInFlight;
    this.maxBatch = maxBatch;
    this.ingest = ingest;
  }

  CompletableFuture<Ingestion> submit(CloudEvent event) {
    Waiting waiting = new Waiting(event, new CompletableFuture<>());
    queue.add(waiting);
    launch();
    return waiting.answer();
  }

  /**
   * Starts batches while events wait and there is room. A caller that finds no room leaves its
   * event queued: the batch that holds the room launches again when it finishes, and it sees the
   * event (the queue's add comes before the caller's read of the count).
   */
  private void launch() {
    while (!queue.isEmpty()) {
      int running = inFlight.get();
      if (running >= maxInFlight) {
        return;
      }
      if (!inFlight.compareAndSet(running, running + 1)) {
        continue;
      }
      List<Waiting> batch = new ArrayList<>();
      for (Waiting next = queue.poll(); next != null; next = queue.poll()) {
        batch.add(next);
        if (batch.size() >= maxBatch) {
          break;
        }
      }
      if (batch.isEmpty()) {
        inFlight.decrementAndGet();
        continue;
      }
      Futures.whenComplete(
          start(batch),
          (answers, failure) -> {
            for (int i = 0; i < batch.size(); i++) {
              if (failure != null) {
                batch.get(i).answer().completeExceptionally(failure);
              } else {
                batch.get(i).answer().complete(answers.get(i));
              }
            }
            inFlight.decrementAndGet();
            launch();
          });
    }
  }

  private CompletableFuture<List<Ingestion>> start(List<Waiting> batch) {
    try {
      return ingest.apply(batch.stream().map(Waiting::event).toList());
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}

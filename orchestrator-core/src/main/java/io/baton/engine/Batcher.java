package io.baton.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gathers single requests from many callers into batches handled by one call on a thread of its own
 * (acquiring or releasing many leases in one round trip). A batch that throws fails each of its
 * requests. Thread-safe; {@link #close()} is idempotent.
 */
final class Batcher<K, V> implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Batcher.class);

  private record Pending<K, V>(List<K> keys, CompletableFuture<Map<K, V>> result) {}

  private final int maxBatch;
  private final Function<List<K>, Map<K, V>> handler;
  private final LinkedBlockingQueue<Pending<K, V>> queue = new LinkedBlockingQueue<>();
  private final Thread thread;
  private volatile boolean closed;

  Batcher(String name, int maxBatch, Function<List<K>, Map<K, V>> handler) {
    this.maxBatch = maxBatch;
    this.handler = handler;
    this.thread = new Thread(this::run, "baton-" + name);
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /** Queues the keys; the future holds the results of exactly these keys. */
  CompletableFuture<Map<K, V>> submit(List<K> keys) {
    CompletableFuture<Map<K, V>> result = new CompletableFuture<>();
    if (closed) {
      result.completeExceptionally(new IllegalStateException("closed"));
    } else {
      queue.add(new Pending<>(List.copyOf(keys), result));
    }
    return result;
  }

  private void run() {
    while (!closed) {
      List<Pending<K, V>> batch = new ArrayList<>();
      try {
        batch.add(queue.take());
      } catch (InterruptedException e) {
        return;
      }
      int keys = batch.get(0).keys().size();
      Pending<K, V> next;
      while (keys < maxBatch && (next = queue.poll()) != null) {
        batch.add(next);
        keys += next.keys().size();
      }
      handle(batch);
    }
  }

  private void handle(List<Pending<K, V>> batch) {
    List<K> all = new ArrayList<>();
    batch.forEach(pending -> all.addAll(pending.keys()));
    try {
      Map<K, V> results = handler.apply(all);
      for (Pending<K, V> pending : batch) {
        Map<K, V> own = new HashMap<>();
        pending.keys().forEach(key -> own.put(key, results.get(key)));
        pending.result().complete(own);
      }
    } catch (Throwable failure) {
      log.debug("batch of {} failed: {}", all.size(), failure.toString());
      batch.forEach(pending -> pending.result().completeExceptionally(failure));
    }
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    List<Pending<K, V>> rest = new ArrayList<>();
    queue.drainTo(rest);
    rest.forEach(p -> p.result().completeExceptionally(new IllegalStateException("closed")));
  }
}

package io.baton.retention;

import io.baton.time.Futures;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a batch again and again on the scheduler: after a full batch (more is waiting) once {@code
 * pause} has passed, otherwise after {@code interval}; a failed batch is logged, counted and tried
 * again after the interval. Never overlaps itself. Start once; stop idempotent. Thread-safe.
 */
final class BatchLoop {
  private static final Logger log = LoggerFactory.getLogger(BatchLoop.class);

  private final String name;
  private final Scheduler scheduler;
  private final Duration pause;
  private final Duration interval;
  private final Supplier<CompletableFuture<Boolean>> batch;
  private final Runnable onFailure;
  private volatile boolean running;

  /**
   * @param batch one batch; completes with whether it was full
   */
  BatchLoop(
      String name,
      Scheduler scheduler,
      Duration pause,
      Duration interval,
      Supplier<CompletableFuture<Boolean>> batch,
      Runnable onFailure) {
    this.name = name;
    this.scheduler = scheduler;
    this.pause = pause;
    this.interval = interval;
    this.batch = batch;
    this.onFailure = onFailure;
  }

  void start() {
    if (running || interval.isZero()) {
      return;
    }
    running = true;
    scheduler.schedule(interval, this::next);
  }

  void stop() {
    running = false;
  }

  private void next() {
    if (!running) {
      return;
    }
    CompletableFuture<Boolean> started;
    try {
      started = batch.get();
    } catch (RuntimeException failure) {
      started = CompletableFuture.failedFuture(failure);
    }
    Futures.whenComplete(
        started,
        (full, failure) -> {
          if (failure != null) {
            onFailure.run();
            log.warn("{} failed, trying again in {}: {}", name, interval, failure.toString());
          }
          if (running) {
            scheduler.schedule(failure == null && full ? pause : interval, this::next);
          }
        });
  }
}

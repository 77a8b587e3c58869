package io.baton.retention;

import io.baton.time.Futures;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a batch again and again on the scheduler: the first soon after start (a random delay between
 * half of {@link #FIRST_PASS_WITHIN} and all of it, or of the interval when that is shorter), then
 * after a full batch (more is waiting) once {@code pause} has passed, otherwise after {@code
 * interval}; a failed batch is logged, counted and tried again after the interval. Never overlaps
 * itself. Start once; stop idempotent. Thread-safe.
 */
final class BatchLoop {
  /**
   * The first pass comes within this long of start, not one whole interval later: a node that
   * restarts more often than the interval (rolling deploys) would otherwise never run it. Not at
   * once, so that housekeeping does not compete with the node's own start (recovery, claims); at a
   * random point of the second half, so that nodes started together do not all run it at the same
   * instant.
   */
  static final Duration FIRST_PASS_WITHIN = Duration.ofSeconds(5);

  private static final Logger log = LoggerFactory.getLogger(BatchLoop.class);

  private final String name;
  private final Scheduler scheduler;
  private final RandomGenerator random;
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
      RandomGenerator random,
      Duration pause,
      Duration interval,
      Supplier<CompletableFuture<Boolean>> batch,
      Runnable onFailure) {
    this.name = name;
    this.scheduler = scheduler;
    this.random = random;
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
    scheduler.schedule(firstDelay(interval, random), this::next);
  }

  /**
   * A random delay in the second half of {@link #FIRST_PASS_WITHIN} or of the interval, drawn from
   * the node's own random (seeded by the simulation, so that a seed replays).
   */
  static Duration firstDelay(Duration interval, RandomGenerator random) {
    long within = Math.min(FIRST_PASS_WITHIN.toNanos(), interval.toNanos());
    return Duration.ofNanos(random.nextLong(within / 2, within + 1));
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

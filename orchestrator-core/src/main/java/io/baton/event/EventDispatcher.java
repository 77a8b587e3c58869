package io.baton.event;

import io.baton.engine.EngineIo;
import io.baton.store.EventStore;
import io.baton.store.StoredEvent;
import io.baton.time.Futures;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's background work on events: move the outbox into the event store (several nodes share
 * it, none takes a row twice) and trigger what it moved; trigger again events left untriggered for
 * {@code retryAfter} (their receiver died or failed between storing and triggering); and delete
 * triggered events past {@code retention}.
 *
 * <p>One poll loop drains the outbox and hands each batch to triggering without waiting for its
 * runs to be created, so the next drain comes {@code pollInterval} after this one (at once after a
 * full batch), not after this batch's appends: an event waits for the next drain and its own
 * batch's appends, never for the batch before it. At most {@link #LANES} batches are in flight; a
 * poll that finds them all busy waits for one to finish. A failing drain is logged and retried
 * after the interval, a failing trigger is retried by the sweep: events wait in the store, never
 * dropped. Thread-safe; start once, stop idempotent.
 */
public final class EventDispatcher {
  private static final Logger log = LoggerFactory.getLogger(EventDispatcher.class);
  private static final Duration RETENTION_EVERY = Duration.ofMinutes(10);

  /** How many batches one node may have in flight at most (drained, runs being created). */
  static final int LANES = 4;

  private final EventTriggers triggers;
  private final EventStore events;
  private final EngineIo io;
  private final Scheduler scheduler;
  private final EventsConfig config;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicBoolean pollWaitsForLane = new AtomicBoolean();
  private volatile boolean running;
  // Owned by the poll loop (one poll at a time).
  private Instant lastSweep = Instant.MIN;
  private Instant lastRetention = Instant.MIN;

  public EventDispatcher(
      EventTriggers triggers, EngineIo io, Scheduler scheduler, EventsConfig config) {
    this.triggers = triggers;
    this.events = triggers.store();
    this.io = io;
    this.scheduler = scheduler;
    this.config = config;
  }

  /** Starts the polls; does nothing on a store that keeps no events. */
  public void start() {
    if (!events.keepsEvents()) {
      return;
    }
    running = true;
    scheduler.schedule(Duration.ZERO, this::poll);
  }

  public void stop() {
    running = false;
  }

  private void poll() {
    if (!running) {
      return;
    }
    if (inFlight.get() >= LANES) {
      pollWaitsForLane.set(true);
      // A batch may have finished between the check and the flag: then nobody would wake us.
      if (inFlight.get() >= LANES || !pollWaitsForLane.compareAndSet(true, false)) {
        return;
      }
    }
    Futures.whenComplete(
        runPass(),
        (full, failure) -> {
          if (failure != null) {
            log.warn(
                "event dispatch pass failed, retrying in {}: {}",
                config.pollInterval(),
                failure.toString());
          }
          if (!running) {
            return;
          }
          if (failure == null && full) {
            scheduler.execute(this::poll);
          } else {
            scheduler.schedule(config.pollInterval(), this::poll);
          }
        });
  }

  /**
   * One poll's work: drains a batch and starts its triggering, then does the housekeeping that is
   * due; completes (with whether the batch was full) once the batch is drained, before its runs are
   * created.
   */
  CompletableFuture<Boolean> runPass() {
    return io.call(
            "drain the event outbox", () -> events.drainOutbox(config.batchSize(), scheduler.now()))
        .thenApply(
            drained -> {
              if (!drained.isEmpty()) {
                inFlight.incrementAndGet();
                Futures.whenComplete(triggerAll(drained), (done, failure) -> batchDone(failure));
              }
              return drained.size() >= config.batchSize();
            })
        .thenCompose(full -> retainIfDue().thenApply(done -> full))
        .thenCompose(full -> sweepIfDue().thenApply(done -> full));
  }

  private void batchDone(Throwable failure) {
    if (failure != null) {
      log.warn(
          "triggering a batch of events failed; they are triggered again after {}: {}",
          config.retryAfter(),
          failure.toString());
    }
    inFlight.decrementAndGet();
    if (running && pollWaitsForLane.compareAndSet(true, false)) {
      scheduler.execute(this::poll);
    }
  }

  private CompletableFuture<Void> retainIfDue() {
    Instant now = scheduler.now();
    if (now.isBefore(lastRetention.plus(RETENTION_EVERY))) {
      return CompletableFuture.completedFuture(null);
    }
    lastRetention = now;
    return io.call(
        "delete old events",
        () -> {
          int deleted = events.deleteTriggeredBefore(now.minus(config.retention()));
          if (deleted > 0) {
            log.info("deleted {} triggered events older than {}", deleted, config.retention());
          }
          return null;
        });
  }

  private CompletableFuture<Void> sweepIfDue() {
    Instant now = scheduler.now();
    if (now.isBefore(lastSweep.plus(config.retryAfter()))) {
      return CompletableFuture.completedFuture(null);
    }
    lastSweep = now;
    return io.call(
            "find untriggered events",
            () -> events.untriggered(now.minus(config.retryAfter()), config.batchSize()))
        .thenCompose(
            stale -> {
              if (!stale.isEmpty()) {
                log.info("triggering {} events whose receiver did not finish", stale.size());
              }
              return triggerAll(stale);
            });
  }

  private CompletableFuture<Void> triggerAll(List<StoredEvent> stored) {
    return triggers.triggerAll(stored).thenApply(done -> null);
  }
}

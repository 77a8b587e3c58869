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
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's background work on events, one pass at a time: move the outbox into the event store
 * (several nodes share it, none takes a row twice) and trigger what it moved; trigger again events
 * left untriggered for {@code retryAfter} (their receiver died or failed between storing and
 * triggering); and delete triggered events past {@code retention}. A pass that found a full batch
 * is followed at once by the next and wakes more lanes, so several batches are in flight under
 * load; otherwise the next pass comes after {@code pollInterval}. A failing pass is logged and
 * retried after the interval: events wait in the store, never dropped. Thread-safe; start once,
 * stop idempotent.
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
  private final AtomicIntegerArray awake = new AtomicIntegerArray(LANES);
  private volatile boolean running;
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

  /** Starts the passes; does nothing on a store that keeps no events. */
  public void start() {
    if (!events.keepsEvents()) {
      return;
    }
    running = true;
    awake.set(0, 1);
    scheduler.schedule(Duration.ZERO, () -> pass(0));
  }

  public void stop() {
    running = false;
  }

  /**
   * One lane's pass. Lane 0 always polls; a full batch wakes the idle lanes, so under load up to
   * {@link #LANES} batches are in flight (one lane's runs are being appended while another drains
   * the next rows: SKIP LOCKED gives them disjoint rows), and an idle node polls with one lane.
   */
  private void pass(int lane) {
    if (!running) {
      return;
    }
    Futures.whenComplete(
        lane == 0 ? runPass() : drainAndTrigger(),
        (full, failure) -> {
          if (failure != null) {
            log.warn(
                "event dispatch pass failed, retrying in {}: {}",
                config.pollInterval(),
                failure.toString());
          }
          boolean more = failure == null && full;
          if (more) {
            wakeIdleLanes();
          }
          if (!running) {
            return;
          }
          if (more) {
            scheduler.execute(() -> pass(lane));
          } else if (lane == 0) {
            scheduler.schedule(config.pollInterval(), () -> pass(0));
          } else {
            awake.set(lane, 0);
          }
        });
  }

  private void wakeIdleLanes() {
    for (int lane = 1; lane < LANES; lane++) {
      if (running && awake.compareAndSet(lane, 0, 1)) {
        int woken = lane;
        scheduler.execute(() -> pass(woken));
      }
    }
  }

  /** One pass; completes with whether the outbox gave a full batch (more is waiting). */
  CompletableFuture<Boolean> runPass() {
    return drainAndTrigger()
        .thenCompose(full -> retainIfDue().thenApply(done -> full))
        .thenCompose(full -> sweepIfDue().thenApply(done -> full));
  }

  /** Drains one batch and triggers it; completes with whether the batch was full. */
  private CompletableFuture<Boolean> drainAndTrigger() {
    return io.call(
            "drain the event outbox", () -> events.drainOutbox(config.batchSize(), scheduler.now()))
        .thenCompose(
            drained -> triggerAll(drained).thenApply(done -> drained.size() >= config.batchSize()));
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

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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's background work on events, one pass at a time: move the outbox into the event store
 * (several nodes share it, none takes a row twice) and trigger what it moved; trigger again events
 * left untriggered for {@code retryAfter} (their receiver died or failed between storing and
 * triggering); and delete triggered events past {@code retention}. A pass that found a full batch
 * is followed at once by the next; otherwise the next comes after {@code pollInterval}. A failing
 * pass is logged and retried after the interval: events wait in the store, never dropped.
 * Thread-safe; start once, stop idempotent.
 */
public final class EventDispatcher {
  private static final Logger log = LoggerFactory.getLogger(EventDispatcher.class);
  private static final Duration RETENTION_EVERY = Duration.ofMinutes(10);

  private final EventTriggers triggers;
  private final EventStore events;
  private final EngineIo io;
  private final Scheduler scheduler;
  private final EventsConfig config;
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
    scheduler.schedule(Duration.ZERO, this::pass);
  }

  public void stop() {
    running = false;
  }

  private void pass() {
    if (!running) {
      return;
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
          if (running) {
            scheduler.schedule(
                failure == null && full ? Duration.ZERO : config.pollInterval(), this::pass);
          }
        });
  }

  /** One pass; completes with whether the outbox gave a full batch (more is waiting). */
  CompletableFuture<Boolean> runPass() {
    return io.call("drain the event outbox", this::drain)
        .thenCompose(
            drained -> triggerAll(drained).thenApply(done -> drained.size() >= config.batchSize()))
        .thenCompose(full -> sweepIfDue().thenApply(done -> full));
  }

  private List<StoredEvent> drain() {
    Instant now = scheduler.now();
    List<StoredEvent> drained = events.drainOutbox(config.batchSize(), now);
    if (!now.isBefore(lastRetention.plus(RETENTION_EVERY))) {
      lastRetention = now;
      int deleted = events.deleteTriggeredBefore(now.minus(config.retention()));
      if (deleted > 0) {
        log.info("deleted {} triggered events older than {}", deleted, config.retention());
      }
    }
    return drained;
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

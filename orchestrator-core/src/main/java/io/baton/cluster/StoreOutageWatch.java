package io.baton.cluster;

import io.baton.engine.EngineIo;
import io.baton.store.StoreHealth;
import io.baton.time.Futures;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches for a gray failure: this node holds its lease but cannot reach its store. It pings the
 * store (on the node's I/O threads: a ping may hang on a cut connection) and reads how long the
 * engine's journal appends have been failing; when either has lasted {@code after}, it asks the
 * node to stand down (give its runs away and wait, not ready). While standing down it goes on
 * pinging; the first ping that answers asks the node to resume. Checks run every {@code after / 4}
 * (at most every second, at least every 50 ms) and never overlap. Thread-safe; start once, {@link
 * #stop()} is idempotent.
 */
final class StoreOutageWatch {
  private static final Logger log = LoggerFactory.getLogger(StoreOutageWatch.class);

  private final String nodeId;
  private final Duration after;
  private final Duration every;
  private final Scheduler scheduler;
  private final EngineIo io;
  private final StoreHealth health;
  private final Supplier<Duration> appendsFailingFor;
  private final Consumer<String> standDown;
  private final BooleanSupplier resume;
  private volatile long lastAnsweredNanos;
  private volatile long resumedAtNanos;
  private volatile long stoodDownAtNanos;
  private volatile boolean pinging;
  private boolean standingDown;
  private boolean running;
  private Scheduler.Cancellable next;

  /**
   * @param standDown gives the node's runs away, with the reason
   * @param resume takes work again; false when it could not (it is asked again at the next check)
   */
  StoreOutageWatch(
      String nodeId,
      Duration after,
      Scheduler scheduler,
      EngineIo io,
      StoreHealth health,
      Supplier<Duration> appendsFailingFor,
      Consumer<String> standDown,
      BooleanSupplier resume) {
    this.nodeId = nodeId;
    this.after = after;
    Duration quarter = after.dividedBy(4);
    Duration bounded =
        quarter.compareTo(Duration.ofSeconds(1)) > 0 ? Duration.ofSeconds(1) : quarter;
    this.every = bounded.compareTo(Duration.ofMillis(50)) < 0 ? Duration.ofMillis(50) : bounded;
    this.scheduler = scheduler;
    this.io = io;
    this.health = health;
    this.appendsFailingFor = appendsFailingFor;
    this.standDown = standDown;
    this.resume = resume;
  }

  synchronized void start() {
    if (running || after.isZero()) {
      return;
    }
    running = true;
    lastAnsweredNanos = scheduler.nanoTime();
    resumedAtNanos = lastAnsweredNanos;
    next = scheduler.schedule(every, this::check);
  }

  synchronized void stop() {
    running = false;
    if (next != null) {
      next.cancel();
      next = null;
    }
  }

  private void check() {
    try {
      ping();
      long now = scheduler.nanoTime();
      if (!isStandingDown()) {
        Duration unanswered = Duration.ofNanos(now - lastAnsweredNanos);
        Duration failing = appendsFailingFor.get();
        Duration sinceResumed = Duration.ofNanos(now - resumedAtNanos);
        // appends that failed before the node last resumed belong to runs it gave away
        Duration appendsDown = failing.compareTo(sinceResumed) < 0 ? failing : sinceResumed;
        if (unanswered.compareTo(after) >= 0 || appendsDown.compareTo(after) >= 0) {
          String why =
              unanswered.compareTo(after) >= 0
                  ? "its store has not answered for " + unanswered.toMillis() + " ms"
                  : "its journal appends have failed for " + appendsDown.toMillis() + " ms";
          setStandingDown(true, now);
          standDown.accept(why);
        }
      } else if (lastAnsweredNanos - stoodDownAtNanos > 0 && resume.getAsBoolean()) {
        log.info("node {}: its store answers again; it takes work again", nodeId);
        resumedAtNanos = scheduler.nanoTime();
        setStandingDown(false, now);
      }
    } catch (RuntimeException failure) {
      log.warn("node {}: the store outage watch failed", nodeId, failure);
    }
    synchronized (this) {
      if (running) {
        next = scheduler.schedule(every, this::check);
      }
    }
  }

  private synchronized boolean isStandingDown() {
    return standingDown;
  }

  private synchronized void setStandingDown(boolean down, long now) {
    standingDown = down;
    if (down) {
      stoodDownAtNanos = now;
    }
  }

  /** Starts a ping unless one is out; a ping that hangs counts as no answer for as long. */
  private void ping() {
    if (pinging) {
      return;
    }
    pinging = true;
    Futures.whenComplete(
        io.call(
            "store ping",
            () -> {
              health.ping();
              return null;
            }),
        (answered, failure) -> {
          if (failure == null) {
            lastAnsweredNanos = scheduler.nanoTime();
          }
          pinging = false;
        });
  }
}

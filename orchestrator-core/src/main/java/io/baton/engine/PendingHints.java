package io.baton.engine;

import io.baton.internal.Defect;
import io.baton.time.Futures;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the other nodes that this node stored runs PENDING, so that one with room claims them now
 * rather than at its next periodic pass. A node stores a submission PENDING when it will not start
 * it itself: it is draining, at capacity, or has no lease yet (starting, or after a hand-off while
 * its API still answers). On the rolling restart those runs waited up to a pass and were the roll's
 * slowest.
 *
 * <p>Hints are merged: one call to the lease service at a time, at most one every {@link #SPACING},
 * and every hint asked for meanwhile is carried by the next call. A hint that fails is dropped
 * (logged): the periodic pass finds the runs. Thread-safe.
 */
final class PendingHints {
  private static final Logger log = LoggerFactory.getLogger(PendingHints.class);

  /** The least time between two hints of one node: a node at capacity stores runs all the time. */
  static final Duration SPACING = Duration.ofMillis(20);

  private final Engine engine;
  private final AtomicBoolean sending = new AtomicBoolean();
  private final AtomicBoolean asked = new AtomicBoolean();

  PendingHints(Engine engine) {
    this.engine = engine;
  }

  /** Asks for a hint; returns at once. */
  void hint() {
    if (Defect.PENDING_UNHINTED.isActive()) {
      return;
    }
    asked.set(true);
    if (sending.compareAndSet(false, true)) {
      send();
    }
  }

  private void send() {
    asked.set(false);
    Futures.whenComplete(
        engine.io().hintPending(),
        (ignored, failure) -> {
          if (failure != null) {
            log.debug("could not hint pending runs: {}", failure.toString());
          }
          engine.scheduler().schedule(SPACING, this::sendIfAsked);
        });
  }

  private void sendIfAsked() {
    sending.set(false);
    if (asked.get() && sending.compareAndSet(false, true)) {
      send();
    }
  }
}

package io.baton.engine;

import io.baton.capability.CancellationSignal;
import io.baton.time.Scheduler;
import java.time.Instant;

/**
 * An invocation in flight: which attempt of which step, since when, and the cancellation it was
 * given (fired by its timeout, a cancelled run, or a node that drops its runs). Confined to the
 * engine's thread except for {@link #cancel()}.
 */
final class Attempt {
  final StepKey key;
  final int number;
  final Instant startedAt;
  final long startedNanos;
  final CancellationSignal cancellation = new CancellationSignal();
  Scheduler.Cancellable timeout;

  /**
   * The invocation, while it waits for the attempt's start to be journaled (trees that journal
   * starts); null once invoked.
   */
  Runnable awaitingStart;

  Attempt(StepKey key, int number, Instant startedAt, long startedNanos) {
    this.key = key;
    this.number = number;
    this.startedAt = startedAt;
    this.startedNanos = startedNanos;
  }

  void cancel() {
    if (timeout != null) {
      timeout.cancel();
    }
    cancellation.cancel();
  }
}

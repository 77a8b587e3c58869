package io.baton.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;

/**
 * Where Baton's components get time and run their background work. Engine code never reads the
 * system clock or sleeps; it asks its scheduler, so that tests and the cluster simulation control
 * time and the order of work. Implementations are thread-safe.
 */
public interface Scheduler extends Executor {
  Clock clock();

  default Instant now() {
    return clock().instant();
  }

  /** Runs the task soon, on one of the scheduler's threads. */
  @Override
  void execute(Runnable task);

  /** Runs the task once after {@code delay} (at once when not positive). */
  Cancellable schedule(Duration delay, Runnable task);

  /** Runs the task at {@code at} on this scheduler's clock (at once when past). */
  default Cancellable scheduleAt(Instant at, Runnable task) {
    return schedule(Duration.between(now(), at), task);
  }

  /** A scheduled task that has not run yet can be cancelled. */
  interface Cancellable {
    /** Cancels the task if it has not started; returns whether it was cancelled. */
    boolean cancel();
  }
}

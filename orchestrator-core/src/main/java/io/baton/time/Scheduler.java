package io.baton.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;

/**
 * Where Baton's components get time and run their background work. Engine code never reads the
 * system clock or sleeps; it asks its scheduler, so that tests and the cluster simulation control
 * time and the order of work. Implementations are thread-safe.
 *
 * <p>Two kinds of time: the wall clock ({@link #clock()}, {@link #now()}), for what is recorded and
 * shown, which an operator or NTP may step either way; and a monotonic reading ({@link
 * #nanoTime()}), for deadlines that must hold whatever the wall clock does. Delays given to {@link
 * #schedule} are measured on the monotonic time.
 */
public interface Scheduler extends Executor {
  Clock clock();

  default Instant now() {
    return clock().instant();
  }

  /**
   * A monotonic reading in nanoseconds: it never goes back and does not follow steps of the wall
   * clock. Its origin is arbitrary; only the difference of two readings means anything (compare
   * them as {@code later - earlier}, which survives overflow).
   */
  long nanoTime();

  /** Runs the task soon, on one of the scheduler's threads. */
  @Override
  void execute(Runnable task);

  /**
   * Runs the task once after {@code delay} (at once when not positive), measured on the monotonic
   * time: stepping the wall clock neither hastens nor delays it.
   */
  Cancellable schedule(Duration delay, Runnable task);

  /**
   * Runs the task at {@code at} on this scheduler's clock (at once when past). The delay is taken
   * from the wall clock once, now: if the wall clock is stepped later, the task still runs after
   * that delay. Deadlines that must hold across steps are kept with {@link #nanoTime()}.
   */
  default Cancellable scheduleAt(Instant at, Runnable task) {
    return schedule(Duration.between(now(), at), task);
  }

  /** A scheduled task that has not run yet can be cancelled. */
  interface Cancellable {
    /** Cancels the task if it has not started; returns whether it was cancelled. */
    boolean cancel();
  }
}

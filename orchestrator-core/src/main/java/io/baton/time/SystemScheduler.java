package io.baton.time;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The production scheduler: the system clock, {@link System#nanoTime()} for monotonic time (the
 * pool's delays run on it too) and a small pool of named daemon threads. Tasks that throw are
 * logged by {@link NamedThreads} and do not kill the pool. {@link #close()} is idempotent.
 */
public final class SystemScheduler implements Scheduler, AutoCloseable {
  private final Clock clock;
  private final ScheduledThreadPoolExecutor pool;

  public SystemScheduler(String name, int threads) {
    this(systemClock(), name, threads);
  }

  /** The wall clock in UTC, for code outside the engine that has no scheduler (the CLI). */
  public static Clock systemClock() {
    return Clock.systemUTC();
  }

  public SystemScheduler(Clock clock, String name, int threads) {
    this.clock = clock;
    this.pool = new ScheduledThreadPoolExecutor(threads, NamedThreads.factory(name));
    this.pool.setRemoveOnCancelPolicy(true);
  }

  @Override
  public Clock clock() {
    return clock;
  }

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public void execute(Runnable task) {
    pool.execute(NamedThreads.guarded(task));
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    long nanos = Math.max(0, delay.toNanos());
    ScheduledFuture<?> future =
        pool.schedule(NamedThreads.guarded(task), nanos, TimeUnit.NANOSECONDS);
    return () -> future.cancel(false);
  }

  /** Stops accepting work and waits up to {@code timeout} for running tasks. */
  public void close(Duration timeout) {
    pool.shutdownNow();
    try {
      pool.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(5));
  }
}

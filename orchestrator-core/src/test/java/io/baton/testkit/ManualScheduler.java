package io.baton.testkit;

import io.baton.time.NamedThreads;
import io.baton.time.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;

/**
 * A scheduler that runs nothing by itself: tests run due tasks with {@link #runDue()} and move time
 * with {@link #advance}. Tasks due at the same instant run in the order they were submitted, so a
 * test (or a simulation seed) replays exactly. Thread-safe, but meant to be driven by one thread.
 *
 * <p>Time passing moves the wall clock and the monotonic time ({@link #nanoTime()}) together; tasks
 * fall due on the monotonic time. {@link #stepWallClock} steps only the wall clock, either way, as
 * NTP or an operator would: no task falls due earlier or later for it.
 */
public final class ManualScheduler implements Scheduler {
  private final SettableClock clock;
  private final Instant origin;
  private final PriorityQueue<Task> queue = new PriorityQueue<>();
  private long sequence;
  private long wallSteps;

  public ManualScheduler() {
    this(new SettableClock());
  }

  public ManualScheduler(SettableClock clock) {
    this.clock = clock;
    this.origin = clock.instant();
  }

  private static final class Task implements Comparable<Task>, Cancellable {
    final long dueNanos;
    final long order;
    final Runnable body;
    boolean cancelled;

    Task(long dueNanos, long order, Runnable body) {
      this.dueNanos = dueNanos;
      this.order = order;
      this.body = body;
    }

    @Override
    public int compareTo(Task other) {
      int byTime = Long.compare(dueNanos, other.dueNanos);
      return byTime != 0 ? byTime : Long.compare(order, other.order);
    }

    @Override
    public synchronized boolean cancel() {
      boolean wasLive = !cancelled;
      cancelled = true;
      return wasLive;
    }
  }

  public SettableClock settableClock() {
    return clock;
  }

  @Override
  public Clock clock() {
    return clock;
  }

  /** Nanoseconds of simulated time since this scheduler was created; wall-clock steps aside. */
  @Override
  public synchronized long nanoTime() {
    return Duration.between(origin, clock.instant()).toNanos() - wallSteps;
  }

  /**
   * Steps the wall clock by {@code shift} (negative: back) without time passing: {@link
   * #nanoTime()} and the tasks' due times stay where they are.
   */
  public synchronized void stepWallClock(Duration shift) {
    clock.step(shift);
    wallSteps += shift.toNanos();
  }

  @Override
  public void execute(Runnable task) {
    schedule(Duration.ZERO, task);
  }

  @Override
  public synchronized Cancellable schedule(Duration delay, Runnable task) {
    long due = delay.isNegative() ? nanoTime() : nanoTime() + delay.toNanos();
    Task scheduled = new Task(due, sequence++, task);
    queue.add(scheduled);
    return scheduled;
  }

  /** More tasks than this at one instant means a task reschedules itself for now forever. */
  private static final int MAX_TASKS_AT_ONE_INSTANT = 1_000_000;

  /**
   * Runs every task that is due now, including tasks they schedule for now; returns the count.
   * Fails, rather than hanging the build, when tasks keep scheduling more work for the same
   * instant.
   */
  public int runDue() {
    int ran = 0;
    Task next;
    while ((next = pollDue()) != null) {
      if (!next.cancelled) {
        NamedThreads.guarded(next.body).run();
        if (++ran > MAX_TASKS_AT_ONE_INSTANT) {
          throw new AssertionError(
              "more than " + MAX_TASKS_AT_ONE_INSTANT + " tasks ran at one instant: a busy loop");
        }
      }
    }
    return ran;
  }

  private synchronized Task pollDue() {
    Task head = queue.peek();
    if (head == null || head.dueNanos > nanoTime()) {
      return null;
    }
    return queue.poll();
  }

  /** Moves time forward step by step, running each task when its time comes. */
  public void advance(Duration duration) {
    long end = nanoTime() + duration.toNanos();
    runDue();
    Long next;
    while ((next = nextDueNanos()) != null && next <= end) {
      moveTo(next);
      runDue();
    }
    moveTo(end);
    runDue();
  }

  /**
   * Runs tasks, moving time to each next due task, until the condition holds; fails when it does
   * not hold within {@code limit} of simulated time.
   */
  public void runUntil(BooleanSupplier condition, Duration limit) {
    long end = nanoTime() + limit.toNanos();
    runDue();
    while (!condition.getAsBoolean()) {
      Long next = nextDueNanos();
      if (next == null || next > end) {
        throw new AssertionError("condition not met within " + limit + " of simulated time");
      }
      moveTo(next);
      runDue();
    }
  }

  /** The wall-clock time at which the earliest live task falls due, or null when none is. */
  public synchronized Instant nextDue() {
    Long next = nextDueNanos();
    return next == null ? null : clock.instant().plusNanos(next - nanoTime());
  }

  private synchronized Long nextDueNanos() {
    while (!queue.isEmpty() && queue.peek().cancelled) {
      queue.poll();
    }
    Task head = queue.peek();
    return head == null ? null : head.dueNanos;
  }

  /** Lets time pass until the monotonic time reads {@code nanos} (never backwards). */
  private synchronized void moveTo(long nanos) {
    long ahead = nanos - nanoTime();
    if (ahead > 0) {
      clock.advance(Duration.ofNanos(ahead));
    }
  }

  public synchronized int pending() {
    return (int) queue.stream().filter(task -> !task.cancelled).count();
  }
}

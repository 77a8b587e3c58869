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
 */
public final class ManualScheduler implements Scheduler {
  private final SettableClock clock;
  private final PriorityQueue<Task> queue = new PriorityQueue<>();
  private long sequence;

  public ManualScheduler() {
    this(new SettableClock());
  }

  public ManualScheduler(SettableClock clock) {
    this.clock = clock;
  }

  private static final class Task implements Comparable<Task>, Cancellable {
    final Instant due;
    final long order;
    final Runnable body;
    boolean cancelled;

    Task(Instant due, long order, Runnable body) {
      this.due = due;
      this.order = order;
      this.body = body;
    }

    @Override
    public int compareTo(Task other) {
      int byTime = due.compareTo(other.due);
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

  @Override
  public void execute(Runnable task) {
    schedule(Duration.ZERO, task);
  }

  @Override
  public synchronized Cancellable schedule(Duration delay, Runnable task) {
    Instant due = delay.isNegative() ? clock.instant() : clock.instant().plus(delay);
    Task scheduled = new Task(due, sequence++, task);
    queue.add(scheduled);
    return scheduled;
  }

  /** Runs every task that is due now, including tasks they schedule for now; returns the count. */
  public int runDue() {
    int ran = 0;
    Task next;
    while ((next = pollDue()) != null) {
      if (!next.cancelled) {
        NamedThreads.guarded(next.body).run();
        ran++;
      }
    }
    return ran;
  }

  private synchronized Task pollDue() {
    Task head = queue.peek();
    if (head == null || head.due.isAfter(clock.instant())) {
      return null;
    }
    return queue.poll();
  }

  /** Moves time forward step by step, running each task when its time comes. */
  public void advance(Duration duration) {
    Instant end = clock.instant().plus(duration);
    runDue();
    Instant next;
    while ((next = nextDue()) != null && !next.isAfter(end)) {
      clock.set(next);
      runDue();
    }
    clock.set(end);
    runDue();
  }

  /**
   * Runs tasks, moving time to each next due task, until the condition holds; fails when it does
   * not hold within {@code limit} of simulated time.
   */
  public void runUntil(BooleanSupplier condition, Duration limit) {
    Instant end = clock.instant().plus(limit);
    runDue();
    while (!condition.getAsBoolean()) {
      Instant next = nextDue();
      if (next == null || next.isAfter(end)) {
        throw new AssertionError("condition not met within " + limit + " of simulated time");
      }
      clock.set(next);
      runDue();
    }
  }

  /** The due time of the earliest live task, or null when none is scheduled. */
  public synchronized Instant nextDue() {
    while (!queue.isEmpty() && queue.peek().cancelled) {
      queue.poll();
    }
    Task head = queue.peek();
    return head == null ? null : head.due;
  }

  public synchronized int pending() {
    return (int) queue.stream().filter(task -> !task.cancelled).count();
  }
}

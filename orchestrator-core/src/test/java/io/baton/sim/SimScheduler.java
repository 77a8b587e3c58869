package io.baton.sim;

import io.baton.testkit.ManualScheduler;
import io.baton.time.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One node's view of the simulation's scheduler. Every task it runs is delayed by a seeded random
 * jitter (so each seed interleaves the nodes differently); a paused node's tasks wait until it
 * resumes; a crashed node's tasks never run (its process is gone). Single-threaded.
 */
final class SimScheduler implements Scheduler {
  private final ManualScheduler global;
  private final Random random;
  private int maxJitterMillis;
  private final int normalJitterMillis;
  private int incarnation;
  private boolean paused;
  private boolean dead;
  private final List<Runnable> deferred = new ArrayList<>();

  SimScheduler(ManualScheduler global, Random random, int maxJitterMillis) {
    this.global = global;
    this.random = random;
    this.maxJitterMillis = maxJitterMillis;
    this.normalJitterMillis = maxJitterMillis;
  }

  /** The node is slow (CPU starved, swapping): each task waits up to {@code millis}. */
  void slowDown(int millis) {
    maxJitterMillis = millis;
  }

  void normalSpeed() {
    maxJitterMillis = normalJitterMillis;
  }

  @Override
  public Clock clock() {
    return global.clock();
  }

  @Override
  public long nanoTime() {
    return global.nanoTime();
  }

  @Override
  public void execute(Runnable task) {
    schedule(Duration.ZERO, task);
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    if (dead) {
      return () -> false;
    }
    int alive = incarnation;
    Duration jitter =
        Duration.ofMillis(maxJitterMillis == 0 ? 0 : random.nextInt(maxJitterMillis + 1));
    Duration total = delay.isNegative() ? jitter : delay.plus(jitter);
    return global.schedule(total, () -> run(alive, task));
  }

  private void run(int alive, Runnable task) {
    if (dead || alive != incarnation) {
      return;
    }
    if (paused) {
      deferred.add(task);
      return;
    }
    task.run();
  }

  void pause() {
    paused = true;
  }

  void resume() {
    paused = false;
    List<Runnable> waiting = new ArrayList<>(deferred);
    deferred.clear();
    int alive = incarnation;
    for (Runnable task : waiting) {
      global.execute(() -> run(alive, task));
    }
  }

  /**
   * The process dies: nothing scheduled so far will ever run, and nothing scheduled later either (a
   * callback from outside, such as a capability completing on the simulation's own clock, finds no
   * process to run in).
   */
  void crash() {
    incarnation++;
    dead = true;
    paused = false;
    deferred.clear();
  }

  boolean isPaused() {
    return paused;
  }
}

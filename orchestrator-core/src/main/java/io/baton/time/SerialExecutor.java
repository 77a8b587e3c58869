package io.baton.time;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * Runs tasks one at a time, in submission order, on a delegate executor: state confined to a serial
 * executor needs no locks. Thread-safe.
 */
public final class SerialExecutor implements Executor {
  private final Executor delegate;
  private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
  private boolean running;

  public SerialExecutor(Executor delegate) {
    this.delegate = delegate;
  }

  @Override
  public void execute(Runnable task) {
    synchronized (queue) {
      queue.add(task);
      if (running) {
        return;
      }
      running = true;
    }
    delegate.execute(this::drain);
  }

  private void drain() {
    while (true) {
      Runnable next;
      synchronized (queue) {
        next = queue.poll();
        if (next == null) {
          running = false;
          return;
        }
      }
      NamedThreads.guarded(next).run();
    }
  }
}

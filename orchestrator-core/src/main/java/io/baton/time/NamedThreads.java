package io.baton.time;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Named daemon threads ({@code baton-claimer-1}) and tasks that never die silently. */
public final class NamedThreads {
  private static final Logger log = LoggerFactory.getLogger(NamedThreads.class);

  private NamedThreads() {}

  public static ThreadFactory factory(String name) {
    AtomicInteger counter = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, "baton-" + name + "-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /**
   * Wraps a background task so that a failure is logged instead of vanishing into an executor; an
   * interrupt keeps the thread's interrupt flag.
   */
  public static Runnable guarded(Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (Throwable failure) {
        if (failure instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
          Thread.currentThread().interrupt();
          log.debug("background task interrupted", failure);
        } else {
          log.error("background task failed", failure);
        }
      }
    };
  }
}

package io.baton.capability;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Cancellation} that its owner fires with {@link #cancel()}. Each action runs exactly
 * once: on the cancelling thread, or at once on the registering thread when already cancelled. An
 * action that throws is logged and does not stop the others. Thread-safe.
 */
public final class CancellationSignal implements Cancellation {
  private static final Logger log = LoggerFactory.getLogger(CancellationSignal.class);
  private final List<Runnable> actions = new ArrayList<>();
  private boolean cancelled;

  /** Cancels and runs every registered action; later calls do nothing. */
  public void cancel() {
    List<Runnable> toRun;
    synchronized (this) {
      if (cancelled) {
        return;
      }
      cancelled = true;
      toRun = List.copyOf(actions);
      actions.clear();
    }
    toRun.forEach(CancellationSignal::runSafely);
  }

  @Override
  public synchronized boolean isCancelled() {
    return cancelled;
  }

  @Override
  public void onCancel(Runnable action) {
    synchronized (this) {
      if (!cancelled) {
        actions.add(action);
        return;
      }
    }
    runSafely(action);
  }

  private static void runSafely(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      log.warn("a cancellation action failed; the others still run", e);
    }
  }
}

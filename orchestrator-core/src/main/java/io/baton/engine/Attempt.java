package io.baton.engine;

import io.baton.capability.Cancellation;
import io.baton.time.Scheduler;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** An invocation in flight. Confined to the engine's thread except for {@link #cancel()}. */
final class Attempt implements Cancellation {
  final StepKey key;
  final int number;
  final Instant startedAt;
  final long startedNanos;
  Scheduler.Cancellable timeout;
  private final List<Runnable> onCancel = new ArrayList<>();
  private boolean cancelled;

  Attempt(StepKey key, int number, Instant startedAt, long startedNanos) {
    this.key = key;
    this.number = number;
    this.startedAt = startedAt;
    this.startedNanos = startedNanos;
  }

  void cancel() {
    List<Runnable> actions;
    synchronized (this) {
      if (cancelled) {
        return;
      }
      cancelled = true;
      actions = List.copyOf(onCancel);
      onCancel.clear();
    }
    if (timeout != null) {
      timeout.cancel();
    }
    actions.forEach(Runnable::run);
  }

  @Override
  public synchronized boolean isCancelled() {
    return cancelled;
  }

  @Override
  public void onCancel(Runnable action) {
    synchronized (this) {
      if (!cancelled) {
        onCancel.add(action);
        return;
      }
    }
    action.run();
  }
}

package io.baton.capability;

/**
 * Tells an invocation that its result is no longer wanted (it timed out, or its run was cancelled
 * or its node is shutting down). Thread-safe.
 */
public interface Cancellation {
  boolean isCancelled();

  /** Runs {@code action} once when cancelled (at once if already cancelled). */
  void onCancel(Runnable action);
}

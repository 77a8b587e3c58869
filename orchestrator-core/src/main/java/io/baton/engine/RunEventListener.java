package io.baton.engine;

/**
 * Receives run events on the engine's thread, in journal order per tree. Implementations must be
 * quick and must not throw (a throwing listener is logged and skipped).
 */
@FunctionalInterface
public interface RunEventListener {
  void onEvent(RunEvent event);
}

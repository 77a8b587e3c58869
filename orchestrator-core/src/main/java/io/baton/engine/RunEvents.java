package io.baton.engine;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who hears what the engine journaled: run event listeners (the HTTP event stream) and the one hook
 * that schedules a parked tree's wake-up. Thread-safe; events are emitted on the engine's loop.
 */
final class RunEvents {
  private static final Logger log = LoggerFactory.getLogger(RunEvents.class);

  private final List<RunEventListener> listeners = new CopyOnWriteArrayList<>();
  private volatile Engine.ParkListener parkListener = (root, wakeAt) -> {};

  void add(RunEventListener listener) {
    listeners.add(listener);
  }

  void remove(RunEventListener listener) {
    listeners.remove(listener);
  }

  void emit(RunEvent event) {
    for (RunEventListener listener : listeners) {
      try {
        listener.onEvent(event);
      } catch (RuntimeException failure) {
        log.warn("a run event listener failed on {}", event, failure);
      }
    }
  }

  void onParked(Engine.ParkListener listener) {
    this.parkListener = listener;
  }

  /** A tree parked with a known wake-up time and left the node. */
  void parked(UUID rootRunId, Instant wakeAt) {
    parkListener.parked(rootRunId, wakeAt);
  }
}

package io.baton.engine;

import io.baton.store.MetadataStore;
import io.baton.time.Scheduler;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches, every {@code signalPollInterval}, the signals addressed to trees this node executes that
 * arrived through another node, and hands them to the engine. One indexed query per interval, and
 * none while the node executes nothing. Thread-safe.
 */
final class SignalPoller {
  private static final Logger log = LoggerFactory.getLogger(SignalPoller.class);
  private static final int BATCH = 1000;

  private final Engine engine;
  private final MetadataStore metadata;
  private final Scheduler scheduler;
  private final Duration interval;
  private volatile boolean running;

  SignalPoller(Engine engine, MetadataStore metadata, Scheduler scheduler, Duration interval) {
    this.engine = engine;
    this.metadata = metadata;
    this.scheduler = scheduler;
    this.interval = interval;
  }

  void start() {
    running = true;
    scheduler.schedule(interval, this::poll);
  }

  void stop() {
    running = false;
  }

  private void poll() {
    if (!running) {
      return;
    }
    if (engine.activeCount() == 0) {
      scheduler.schedule(interval, this::poll);
      return;
    }
    engine
        .io
        .call("poll signals", () -> metadata.signalsForNode(engine.nodeId(), BATCH))
        .whenComplete(
            (signals, failure) -> {
              if (failure != null) {
                log.debug("signal poll failed: {}", failure.toString());
              } else if (!signals.isEmpty()) {
                engine.deliver(signals);
              }
              if (running) {
                scheduler.schedule(interval, this::poll);
              }
            });
  }
}

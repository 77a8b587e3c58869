package io.baton.engine;

import io.baton.store.Signal;
import io.baton.store.SignalInbox;
import io.baton.time.Futures;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches, every {@code signalPollInterval}, the signals addressed to trees this node executes that
 * arrived through another node, and hands them to the engine. It asks for exactly the trees the
 * engine holds (one indexed query per {@value #BATCH} trees, none while it holds nothing), so
 * signals it would never apply, however many, cannot crowd out the ones it would. Thread-safe.
 */
public final class SignalPoller {
  private static final Logger log = LoggerFactory.getLogger(SignalPoller.class);
  private static final int BATCH = 1000;

  private final Engine engine;
  private final SignalInbox signalInbox;
  private final Scheduler scheduler;
  private final Duration interval;
  private volatile boolean running;

  public SignalPoller(
      Engine engine, SignalInbox signalInbox, Scheduler scheduler, Duration interval) {
    this.engine = engine;
    this.signalInbox = signalInbox;
    this.scheduler = scheduler;
    this.interval = interval;
  }

  public void start() {
    running = true;
    scheduler.schedule(interval, this::poll);
  }

  public void stop() {
    running = false;
  }

  private List<Signal> signalsForOwnedTrees() {
    List<UUID> roots = List.copyOf(engine.ownedRoots());
    List<Signal> signals = new ArrayList<>();
    for (int from = 0; from < roots.size(); from += BATCH) {
      List<UUID> batch = roots.subList(from, Math.min(roots.size(), from + BATCH));
      signalInbox.signalsForTrees(batch).values().forEach(signals::addAll);
    }
    return signals;
  }

  private void poll() {
    if (!running) {
      return;
    }
    if (engine.activeCount() == 0) {
      scheduler.schedule(interval, this::poll);
      return;
    }
    Futures.whenComplete(
        engine.io().call("poll signals", this::signalsForOwnedTrees),
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

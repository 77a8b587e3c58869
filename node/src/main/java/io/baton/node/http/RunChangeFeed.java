package io.baton.node.http;

import io.baton.store.RunIndex;
import io.baton.store.RunPosition;
import io.baton.store.RunRecord;
import io.baton.time.NamedThreads;
import io.javalin.http.sse.SseClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The cluster-wide stream of run changes behind {@code GET /api/v1/stream/runs}. Every node reads
 * the store's change feed ({@link RunIndex#runsChangedAfter}), so a client of any node sees every
 * run's claims, status changes and completions, whichever node journaled them, within about one
 * {@link #POLL_INTERVAL}. Each event carries an id (its place in the feed); a client that
 * reconnects with {@code Last-Event-ID} first gets every run changed since, at its latest state, or
 * a {@code reload} event when more than {@link #DEFAULT_MAX_REPLAY} (or the limit given) changed.
 * Delivery is at least once: events are whole run snapshots, so a repeat is harmless.
 *
 * <p>A change becomes visible when its append commits, possibly after a change stamped later; each
 * poll therefore re-reads {@link #LOOKBACK} before the newest change seen and skips what it sent
 * already. The feed polls only while someone listens. Thread-safe; {@link #close()} is idempotent.
 */
final class RunChangeFeed implements AutoCloseable {
  static final Duration POLL_INTERVAL = Duration.ofMillis(200);
  static final Duration LOOKBACK = Duration.ofSeconds(2);
  static final int DEFAULT_MAX_REPLAY = 1000;
  static final int BATCH = 1000;
  static final String RUN = "run";
  static final String RELOAD = "reload";
  private static final UUID FIRST_ID = new UUID(0, 0);
  private static final int MAX_BATCHES_PER_POLL = 20;

  private final RunIndex runs;
  private final Supplier<Liveness> liveness;
  private final Clock clock;
  private final int maxReplay;
  private final Set<Subscriber> subscribers = ConcurrentHashMap.newKeySet();
  private final ExecutorService senders =
      Executors.newCachedThreadPool(NamedThreads.factory("http-run-feed-sender"));
  private final ScheduledExecutorService poller =
      Executors.newSingleThreadScheduledExecutor(NamedThreads.factory("http-run-feed"));
  // Owned by the poller thread.
  private final Map<UUID, Instant> sent = new HashMap<>();
  private Instant newest;

  private record Subscriber(StreamSubscriber stream, Predicate<RunRecord> filter) {}

  // The poll's future is not kept: guarded() logs each failed poll, close() stops them.
  @SuppressWarnings("FutureReturnValueIgnored")
  RunChangeFeed(
      RunIndex runs, Supplier<Liveness> liveness, Clock clock, Duration heartbeat, int maxReplay) {
    if (maxReplay < 1) {
      throw new IllegalArgumentException("maxReplay must be positive, got " + maxReplay);
    }
    this.runs = runs;
    this.liveness = liveness;
    this.clock = clock;
    this.maxReplay = maxReplay;
    long millis = POLL_INTERVAL.toMillis();
    poller.scheduleWithFixedDelay(
        NamedThreads.guarded(this::poll), millis, millis, TimeUnit.MILLISECONDS);
    long beat = heartbeat.toMillis();
    poller.scheduleAtFixedRate(NamedThreads.guarded(this::beat), beat, beat, TimeUnit.MILLISECONDS);
  }

  /**
   * Streams the changes of runs that pass {@code filter} to {@code client}, first replaying those
   * after {@code lastEventId} when the client sent one.
   */
  void subscribe(SseClient client, Predicate<RunRecord> filter, RunPosition lastEventId) {
    Subscriber subscriber =
        new Subscriber(new StreamSubscriber(client, e -> true, senders), filter);
    client.keepAlive();
    client.onClose(() -> subscribers.remove(subscriber));
    subscribers.add(subscriber);
    subscriber.stream().comment("connected");
    if (lastEventId != null) {
      replay(subscriber, lastEventId);
    }
  }

  int subscriberCount() {
    return subscribers.size();
  }

  private void replay(Subscriber subscriber, RunPosition after) {
    List<RunRecord> missed = runs.runsChangedAfter(after, maxReplay + 1);
    if (missed.size() > maxReplay) {
      subscriber.stream()
          .event(
              RELOAD,
              null,
              Json.write(
                  Json.object(
                      "reason", "more than " + maxReplay + " runs changed since the last event")));
      return;
    }
    Liveness live = liveness.get();
    for (RunRecord run : missed) {
      send(subscriber, run, live);
    }
  }

  private void poll() {
    if (subscribers.isEmpty()) {
      newest = null;
      sent.clear();
      return;
    }
    if (newest == null) {
      newest = clock.instant();
    }
    RunPosition from = new RunPosition(newest.minus(LOOKBACK), FIRST_ID);
    Liveness live = null;
    for (int batch = 0; batch < MAX_BATCHES_PER_POLL; batch++) {
      List<RunRecord> changed = runs.runsChangedAfter(from, BATCH);
      for (RunRecord run : changed) {
        Instant previous = sent.get(run.runId());
        if (previous == null || run.updatedAt().isAfter(previous)) {
          live = live == null ? liveness.get() : live;
          broadcast(run, live);
          sent.put(run.runId(), run.updatedAt());
        }
        if (run.updatedAt().isAfter(newest)) {
          newest = run.updatedAt();
        }
      }
      if (changed.size() < BATCH) {
        break;
      }
      from = RunPosition.updated(changed.get(changed.size() - 1));
    }
    Instant forgetBefore = newest.minus(LOOKBACK);
    sent.values().removeIf(at -> at.isBefore(forgetBefore));
  }

  private void broadcast(RunRecord run, Liveness live) {
    for (Subscriber subscriber : subscribers) {
      send(subscriber, run, live);
    }
  }

  private static void send(Subscriber subscriber, RunRecord run, Liveness live) {
    if (subscriber.filter().test(run)) {
      subscriber.stream()
          .event(
              RUN, Cursors.encode(RunPosition.updated(run)), Json.write(RunJson.listed(run, live)));
    }
  }

  /** A comment to every client: keeps idle connections open and finds clients that left. */
  private void beat() {
    subscribers.forEach(s -> s.stream().comment("heartbeat"));
  }

  @Override
  public void close() {
    poller.shutdownNow();
    subscribers.forEach(s -> s.stream().close());
    StreamSubscriber.finish(senders);
  }
}

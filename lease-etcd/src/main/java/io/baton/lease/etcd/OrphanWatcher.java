package io.baton.lease.etcd;

import io.baton.lease.LiveNodes;
import io.baton.lease.Orphan;
import io.baton.lease.OrphanListener;
import io.baton.lease.Subscription;
import io.baton.time.Scheduler;
import io.baton.time.SerialExecutor;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.common.exception.CompactedException;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code watchOrphans} subscription: a watch on the cluster's whole prefix (run keys and node
 * keys) whose deletions {@link OrphanClassifier} sorts into orphans and normal releases, and whose
 * puts of the pending key are passed on as pending hints.
 *
 * <p>It remembers the last revision it has seen and, whenever the watch breaks (a member dies, the
 * member loses its leader, the connection drops), opens a new one from the next revision, so no
 * deletion is missed and none is reported twice. jetcd's own resumption is not used: it can skip
 * the history between a watch's creation and its first event. When etcd has compacted the history
 * the watch needed, the listener hears {@link OrphanListener#onWatchGap} and the watch starts over
 * from a fresh snapshot of the live nodes.
 *
 * <p>Responses are handled one at a time, in order, on the scheduler (a {@link SerialExecutor});
 * the listener is called there. Thread-safe.
 */
final class OrphanWatcher implements Subscription {
  private static final Logger log = LoggerFactory.getLogger(OrphanWatcher.class);
  private static final Duration FIRST_RETRY = Duration.ofMillis(100);
  private static final Duration LAST_RETRY = Duration.ofSeconds(2);

  /**
   * Reads the live nodes and the revision they were read at (where a watch starts); throws a {@code
   * LeaseException} when etcd cannot answer.
   */
  @FunctionalInterface
  interface NodeSnapshots {
    LiveNodes read();
  }

  private final Watch watch;
  private final KeySpace keys;
  private final NodeSnapshots snapshots;
  private final OrphanClassifier classifier;
  private final OrphanListener listener;
  private final Scheduler scheduler;
  private final SerialExecutor events;
  private final String nodeId;

  // Confined to `events` (or to the constructor before the first watch opens).
  private long lastSeenRevision;
  private Duration retryDelay = FIRST_RETRY;

  // Guarded by `this`.
  private Watch.Watcher watcher;
  private int generation;
  private volatile boolean closed;

  /**
   * @param start where to start: the watch reports deletions after its revision; null when etcd
   *     could not be read (the watch then starts at etcd's newest revision and reports a gap)
   */
  OrphanWatcher(
      Watch watch,
      KeySpace keys,
      NodeSnapshots snapshots,
      OrphanClassifier.OwnerLookup owners,
      OrphanListener listener,
      Scheduler scheduler,
      String nodeId,
      LiveNodes start) {
    this.watch = watch;
    this.keys = keys;
    this.snapshots = snapshots;
    this.classifier = new OrphanClassifier(keys, owners);
    this.listener = listener;
    this.scheduler = scheduler;
    this.events = new SerialExecutor(scheduler);
    this.nodeId = nodeId;
    if (start != null) {
      this.classifier.reset(start.nodes());
      this.lastSeenRevision = start.revision();
    }
  }

  void start() {
    events.execute(this::open);
  }

  @Override
  public void close() {
    Watch.Watcher stopping;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      generation++;
      stopping = watcher;
      watcher = null;
    }
    if (stopping != null) {
      stopping.close();
    }
  }

  private void open() {
    if (closed) {
      return;
    }
    if (lastSeenRevision == 0) {
      gap("the watch could not learn the revision to start from, so it starts at the newest one");
    }
    WatchOption option =
        WatchOption.builder()
            .isPrefix(true)
            .withRevision(lastSeenRevision == 0 ? 0 : lastSeenRevision + 1)
            .withCreateNotify(true)
            .withProgressNotify(true)
            .withRequireLeader(true)
            .build();
    // jetcd calls our listener while holding its own lock, so we never call jetcd holding ours.
    int current;
    synchronized (this) {
      if (closed) {
        return;
      }
      current = ++generation;
    }
    Watch.Watcher opened;
    try {
      opened =
          watch.watch(
              keys.prefix(),
              option,
              Watch.listener(
                  response -> onResponse(current, response),
                  failure -> onFailure(current, failure),
                  () -> onFailure(current, new IllegalStateException("the watch ended"))));
    } catch (RuntimeException failure) {
      onFailure(current, failure);
      return;
    }
    boolean superseded;
    synchronized (this) {
      superseded = closed || generation != current;
      if (!superseded) {
        watcher = opened;
      }
    }
    if (superseded) {
      opened.close(); // it failed already, or the subscription was closed meanwhile
    }
  }

  private synchronized boolean isCurrent(int watchGeneration) {
    return !closed && watchGeneration == generation;
  }

  private void onResponse(int watchGeneration, WatchResponse response) {
    if (isCurrent(watchGeneration)) {
      events.execute(() -> handle(response));
    }
  }

  /**
   * Called by jetcd, which would retry on its own from a revision of its choosing: stop that watch
   * (its onCompleted then finds a stale generation) and resume from our own last revision.
   */
  private void onFailure(int watchGeneration, Throwable failure) {
    Watch.Watcher failed;
    synchronized (this) {
      if (closed || watchGeneration != generation) {
        return;
      }
      generation++;
      failed = watcher;
      watcher = null;
    }
    if (failed != null) {
      failed.close();
    }
    events.execute(() -> recover(EtcdCalls.unwrap(failure)));
  }

  private void handle(WatchResponse response) {
    if (closed) {
      return;
    }
    long revision = lastSeenRevision;
    for (WatchEvent event : response.getEvents()) {
      revision = Math.max(revision, event.getKeyValue().getModRevision());
    }
    if (response.isProgressNotify() || (response.isCreatedNotify() && lastSeenRevision == 0)) {
      revision = Math.max(revision, response.getHeader().getRevision());
    }
    String pendingFrom = null;
    for (WatchEvent event : response.getEvents()) {
      if (event.getEventType() == WatchEvent.EventType.PUT
          && keys.isPendingKey(event.getKeyValue().getKey())) {
        pendingFrom = KeySpace.text(event.getKeyValue().getValue());
      }
    }
    OrphanClassifier.Departures departures = classifier.departures(response.getEvents());
    List<Orphan> orphans = departures.orphans();
    lastSeenRevision = revision;
    retryDelay = FIRST_RETRY;
    if (!orphans.isEmpty()) {
      try {
        listener.onOrphans(orphans);
      } catch (RuntimeException failure) {
        log.error(
            "node {}: an orphan listener failed on {} orphans", nodeId, orphans.size(), failure);
      }
    }
    for (OrphanClassifier.GoneNode gone : departures.nodes()) {
      try {
        listener.onNodeGone(gone.nodeId(), gone.handoff(), gone.revision());
      } catch (RuntimeException failure) {
        log.error(
            "node {}: an orphan listener failed on node {} gone", nodeId, gone.nodeId(), failure);
      }
    }
    if (pendingFrom != null) {
      hintPending(pendingFrom);
    }
  }

  private void hintPending(String fromNode) {
    try {
      listener.onPendingRuns(fromNode);
    } catch (RuntimeException failure) {
      log.error("node {}: an orphan listener failed on a pending hint", nodeId, failure);
    }
  }

  private void recover(Throwable cause) {
    if (closed) {
      return;
    }
    if (cause instanceof CompactedException compacted) {
      startOver(
          "etcd compacted its history up to revision "
              + compacted.getCompactedRevision()
              + " before the watch could resume at revision "
              + (lastSeenRevision + 1));
      return;
    }
    Duration delay = retryDelay;
    retryDelay =
        delay.multipliedBy(2).compareTo(LAST_RETRY) > 0 ? LAST_RETRY : delay.multipliedBy(2);
    log.info(
        "node {}: orphan watch interrupted ({}); resuming after revision {} in {} ms",
        nodeId,
        cause.toString(),
        lastSeenRevision,
        delay.toMillis());
    scheduler.schedule(delay, () -> events.execute(this::open));
  }

  /** After a gap: the live nodes as they are now, and the watch from there. */
  /**
   * Starts watching again from a fresh snapshot, then reports the gap: the listener hears of it
   * only once the watch has its new start, so nothing after the report can be missed.
   */
  private void startOver(String gapReason) {
    try {
      LiveNodes now = snapshots.read();
      classifier.reset(now.nodes());
      lastSeenRevision = now.revision();
      open();
      gap(gapReason);
    } catch (RuntimeException unreachable) {
      log.info("node {}: cannot read the live nodes yet: {}", nodeId, unreachable.toString());
      scheduler.schedule(retryDelay, () -> events.execute(() -> startOver(gapReason)));
    }
  }

  private void gap(String reason) {
    log.warn("node {}: orphans may have been missed: {}", nodeId, reason);
    try {
      listener.onWatchGap(reason);
    } catch (RuntimeException failure) {
      log.error("node {}: an orphan listener failed on a watch gap", nodeId, failure);
    }
  }
}

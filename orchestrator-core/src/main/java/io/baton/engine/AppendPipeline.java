package io.baton.engine;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.JournalEntry;
import io.baton.time.Futures;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries each tree's decided events into the journal under its fencing token, one append per tree
 * at a time ({@link TreeAppends}), and retries with back-off while the store fails. An acknowledged
 * append is folded into the tree's state and announced; a fenced-out or rejected one drops the
 * tree. Runs on the engine's loop.
 */
final class AppendPipeline {
  private static final Logger log = LoggerFactory.getLogger(AppendPipeline.class);
  private static final Duration FIRST_STORE_RETRY = Duration.ofMillis(50);

  private final String nodeId;
  private final EngineIo io;
  private final Scheduler scheduler;
  private final EngineMetrics metrics;
  private final Duration retryMax;
  private final TreeLoop loop;
  private final Announcements announcements;
  private final SignalReceipts receipts;
  private final Checkpoints checkpoints;

  /** Since when (scheduler nanos) appends have failed with no success since; NOT_FAILING if not. */
  private volatile long failingSinceNanos = NOT_FAILING;

  private static final long NOT_FAILING = Long.MIN_VALUE;

  AppendPipeline(
      String nodeId,
      EngineIo io,
      Scheduler scheduler,
      EngineMetrics metrics,
      Duration retryMax,
      TreeLoop loop,
      Announcements announcements,
      SignalReceipts receipts,
      Checkpoints checkpoints) {
    this.nodeId = nodeId;
    this.io = io;
    this.scheduler = scheduler;
    this.metrics = metrics;
    this.retryMax = retryMax;
    this.loop = loop;
    this.announcements = announcements;
    this.receipts = receipts;
    this.checkpoints = checkpoints;
  }

  /**
   * How long journal appends have been failing without one success in between (the store cannot be
   * reached, or refuses every write); zero when the last append that ended succeeded.
   */
  Duration failingFor() {
    long since = failingSinceNanos;
    return since == NOT_FAILING ? Duration.ZERO : Duration.ofNanos(scheduler.nanoTime() - since);
  }

  /** Submits the tree's decided events as its next append, unless one is out already. */
  void flush(ActiveTree tree) {
    AppendRequest request = tree.appends.submit(tree.state.lastSeq(), scheduler.now());
    if (request != null) {
      submit(tree, request);
    }
  }

  private void submit(ActiveTree tree, AppendRequest request) {
    long started = System.nanoTime();
    Futures.whenComplete(
        io.append(request),
        (result, failure) ->
            loop.execute(
                () -> appended(tree, request, result, failure, System.nanoTime() - started)));
  }

  private void appended(
      ActiveTree tree, AppendRequest request, AppendResult result, Throwable failure, long nanos) {
    if (!tree.appends.awaits(request)) {
      return;
    }
    if (failure != null) {
      if (failingSinceNanos == NOT_FAILING) {
        failingSinceNanos = scheduler.nanoTime();
      }
      retry(tree, failure);
      return;
    }
    if (failingSinceNanos != NOT_FAILING) {
      failingSinceNanos = NOT_FAILING; // a volatile write only when an outage ends, not per append
    }
    metrics.appendLatency(nanos);
    if (result instanceof AppendResult.Appended) {
      acknowledged(tree, request);
    } else if (result instanceof AppendResult.FencedOut fenced) {
      metrics.fencedOut();
      log.warn(
          "node {} was fenced out of run {}: its token {} is stale, the current token is {};"
              + " dropping the run",
          nodeId,
          tree.rootId,
          fenced.staleToken(),
          fenced.currentToken());
      loop.retire(tree, false);
    } else {
      log.error(
          "node {} could not append to run {}: {}; dropping the run", nodeId, tree.rootId, result);
      loop.retire(tree, false);
    }
  }

  private void retry(ActiveTree tree, Throwable failure) {
    metrics.journalRetry();
    int failures = tree.appends.failed();
    long factor = 1L << Math.min(failures - 1, 10);
    Duration wait = FIRST_STORE_RETRY.multipliedBy(factor);
    if (wait.compareTo(retryMax) > 0) {
      wait = retryMax;
    }
    if (failures == 1 || failures % 20 == 0) {
      log.warn(
          "journal write for run {} failed ({} times), retrying in {}: {}",
          tree.rootId,
          failures,
          wait,
          failure.toString());
    }
    scheduler.schedule(
        wait,
        () ->
            loop.execute(
                () -> {
                  AppendRequest again = tree.appends.resubmit();
                  if (again != null) {
                    submit(tree, again);
                  }
                }));
  }

  private void acknowledged(ActiveTree tree, AppendRequest request) {
    List<PendingEvent> journaled = tree.appends.acknowledged();
    for (JournalEntry entry : request.entries()) {
      tree.state.apply(entry);
      announcements.announce(tree.rootId, tree.state, entry, tree::capabilityOf);
    }
    for (PendingEvent pending : journaled) {
      if (pending.outcomeOf() != null) {
        tree.unjournaled.remove(pending.outcomeOf());
      }
    }
    receipts.answered("delete signals", tree.appends.takeAnsweredInFlight());
    checkpoints.journaled(tree, request.entries());
    loop.drive(tree);
  }
}

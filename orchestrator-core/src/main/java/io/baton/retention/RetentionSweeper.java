package io.baton.retention;

import com.codahale.metrics.Counter;
import io.baton.engine.EngineIo;
import io.baton.store.RunRetention;
import io.baton.store.RunRetention.Deadline;
import io.baton.store.RunRetention.FinishedTree;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes finished run trees once their retention has passed: each batch first gives up to {@code
 * retention.batchSize} finished trees their deadline (their finish plus their flow's {@code
 * retention}, or {@code retention.finishedRuns}), then deletes up to {@code retention.batchSize}
 * trees past theirs ({@link RunRetention}: deleters on every node take disjoint trees). Full
 * batches follow each other after {@code retention.pause}. Time is the scheduler's. Thread-safe;
 * start once, stop idempotent.
 */
public final class RetentionSweeper {
  private static final Logger log = LoggerFactory.getLogger(RetentionSweeper.class);

  /** Run trees deleted by retention. */
  public static final String DELETED = "baton.retention.deleted";

  /** Retention batches that failed. */
  public static final String FAILURES = "baton.retention.failures";

  private final RunRetention store;
  private final Function<FinishedTree, Duration> retentionOf;
  private final EngineIo io;
  private final Scheduler scheduler;
  private final int batchSize;
  private final Counter deleted;
  private final BatchLoop loop;

  /**
   * @param retentionOf how long a finished tree is kept (its flow's retention or the default)
   */
  public RetentionSweeper(
      RunRetention store,
      Function<FinishedTree, Duration> retentionOf,
      EngineIo io,
      Scheduler scheduler,
      RandomGenerator random,
      HousekeepingConfig config,
      Counter deleted,
      Counter failures) {
    this.store = store;
    this.retentionOf = retentionOf;
    this.io = io;
    this.scheduler = scheduler;
    this.batchSize = config.retentionBatchSize();
    this.deleted = deleted;
    this.loop =
        new BatchLoop(
            "run retention",
            scheduler,
            random,
            config.retentionPause(),
            config.retentionInterval(),
            this::batch,
            failures::inc);
  }

  public void start() {
    loop.start();
  }

  public void stop() {
    loop.stop();
  }

  /** One batch; completes with whether either half was full (more is waiting). */
  public CompletableFuture<Boolean> batch() {
    return io.call("give finished runs their deadlines", this::giveDeadlines)
        .thenCompose(
            fullOfFinished ->
                io.call(
                        "delete finished runs past their retention",
                        () -> store.deleteExpired(scheduler.now(), batchSize))
                    .thenApply(
                        roots -> {
                          deleted.inc(roots.size());
                          if (!roots.isEmpty()) {
                            log.info("deleted {} finished run trees past retention", roots.size());
                          }
                          return fullOfFinished || roots.size() >= batchSize;
                        }));
  }

  private boolean giveDeadlines() {
    List<FinishedTree> finished = store.finishedWithoutDeadline(batchSize);
    store.setDeadlines(
        finished.stream()
            .map(
                tree ->
                    new Deadline(
                        tree.rootRunId(),
                        tree.finishedAt(),
                        tree.finishedAt().plus(retentionOf.apply(tree))))
            .toList());
    return finished.size() >= batchSize;
  }
}

package io.baton.retention;

import com.codahale.metrics.Counter;
import io.baton.engine.EngineIo;
import io.baton.journal.ExecutionJournal;
import io.baton.time.Scheduler;
import java.util.concurrent.CompletableFuture;
import java.util.random.RandomGenerator;

/**
 * Moves journal entries covered by checkpoints out of the hot journal into the archive, in batches
 * of at most {@code archive.batchSize} entries with {@code archive.pause} between full batches
 * ({@link ExecutionJournal#archiveCovered}: archivers on every node share the work, none moves an
 * entry twice, appends never wait for them). Counts what it moved. Thread-safe; start once, stop
 * idempotent.
 */
public final class JournalArchiver {
  /** Journal entries moved to the archive. */
  public static final String ARCHIVED = "baton.journal.archived";

  /** Archiver batches that failed (the store was unreachable, for one). */
  public static final String FAILURES = "baton.journal.archive.failures";

  private final ExecutionJournal journal;
  private final EngineIo io;
  private final int batchSize;
  private final Counter archived;
  private final BatchLoop loop;

  public JournalArchiver(
      ExecutionJournal journal,
      EngineIo io,
      Scheduler scheduler,
      RandomGenerator random,
      HousekeepingConfig config,
      Counter archived,
      Counter failures) {
    this.journal = journal;
    this.io = io;
    this.batchSize = config.archiveBatchSize();
    this.archived = archived;
    this.loop =
        new BatchLoop(
            "journal archiving",
            scheduler,
            random,
            config.archivePause(),
            config.archiveInterval(),
            this::batch,
            failures::inc);
  }

  public void start() {
    loop.start();
  }

  public void stop() {
    loop.stop();
  }

  /** One batch; completes with whether it was full (more is waiting). */
  public CompletableFuture<Boolean> batch() {
    return io.call("archive covered journal entries", () -> journal.archiveCovered(batchSize))
        .thenApply(
            moved -> {
              archived.inc(moved);
              return moved >= batchSize;
            });
  }
}

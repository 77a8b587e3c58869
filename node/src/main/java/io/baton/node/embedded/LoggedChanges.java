package io.baton.node.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.memory.InMemoryJournal;
import io.baton.store.StoreException;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryEventStore;
import io.baton.store.memory.InMemoryMetadataStore;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the embedded store's memory equal to its log. Every change is applied in memory and written
 * to the log under one lock, so the log's order is the stores' order; the call returns only once
 * the log has forced the change to disk. When the write fails, memory is rebuilt from the log
 * before the failure is reported, with the journal and the metadata store locked (their readers
 * wait): nothing the log does not hold is ever seen, or answered as already present to a retry.
 * Thread-safe.
 */
final class LoggedChanges {
  private static final Logger logger = LoggerFactory.getLogger(LoggedChanges.class);

  private final Stores memory;
  private final MutationLog log;
  private final AtomicLong highestToken;
  private final long compactAfterBytes;
  private long lastSnapshotBytes;

  /**
   * @param compactAfterBytes the log is compacted (rewritten as a snapshot) once it is longer than
   *     this and more than twice as long as it was after the last compaction
   */
  LoggedChanges(Stores memory, MutationLog log, AtomicLong highestToken, long compactAfterBytes) {
    this.memory = memory;
    this.log = log;
    this.highestToken = highestToken;
    this.compactAfterBytes = compactAfterBytes;
  }

  /**
   * Rewrites the log as a snapshot of memory when it has grown enough (see the constructor). A
   * compaction that fails leaves the old log in use; it is tried again after the next change.
   */
  void compactIfGrown() {
    synchronized (log) {
      long length = log.length();
      if (length <= compactAfterBytes || length <= 2 * lastSnapshotBytes) {
        return;
      }
      compact();
    }
  }

  /** Rewrites the log as a snapshot of memory, now; returns its new length. */
  long compact() {
    synchronized (log) {
      log.rewrite(Snapshot.of(memory, highestToken.get()));
      lastSnapshotBytes = log.length();
      return lastSnapshotBytes;
    }
  }

  /**
   * Applies a change in memory, then logs the records it yields; returns its result once they are
   * durable.
   *
   * @throws StoreException the log could not be written: memory is as it was before the change
   */
  <T> T apply(Supplier<T> change, Function<T, List<JsonNode>> records) {
    synchronized (log) {
      T result = change.get();
      try {
        log.write(records.apply(result));
      } catch (StoreException | UncheckedIOException failure) {
        rebuild();
        throw failure;
      }
      compactQuietly();
      return result;
    }
  }

  /** A change is durable whether or not the compaction after it works: that is only reported. */
  private void compactQuietly() {
    try {
      compactIfGrown();
    } catch (StoreException failure) {
      logger.warn(
          "could not compact the embedded store's log; trying again later: {}", failure.toString());
    }
  }

  /** Runs {@code write} (a change that logs itself and undoes itself) under the log's lock. */
  void locked(Runnable write) {
    synchronized (log) {
      write.run();
    }
  }

  /** Logs records, for a change made under {@link #locked}. */
  void log(List<JsonNode> records) {
    log.write(records);
  }

  /** Forgets memory and replays the log into it, its readers waiting. */
  private void rebuild() {
    InMemoryJournal journal = (InMemoryJournal) memory.journal();
    InMemoryMetadataStore metadata = (InMemoryMetadataStore) memory.metadata();
    InMemoryEventStore events = (InMemoryEventStore) memory.events();
    synchronized (journal) {
      synchronized (metadata) {
        synchronized (events) {
          journal.clear();
          metadata.clear();
          events.clear();
          highestToken.set(0);
          log.replay(record -> Records.apply(memory, record, highestToken));
        }
      }
    }
  }
}

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

/**
 * Keeps the embedded store's memory equal to its log. Every change is applied in memory and written
 * to the log under one lock, so the log's order is the stores' order; the call returns only once
 * the log has forced the change to disk. When the write fails, memory is rebuilt from the log
 * before the failure is reported, with the journal and the metadata store locked (their readers
 * wait): nothing the log does not hold is ever seen, or answered as already present to a retry.
 * Thread-safe.
 */
final class LoggedChanges {
  private final Stores memory;
  private final MutationLog log;
  private final AtomicLong highestToken;

  LoggedChanges(Stores memory, MutationLog log, AtomicLong highestToken) {
    this.memory = memory;
    this.log = log;
    this.highestToken = highestToken;
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
      return result;
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

package io.baton.node.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.memory.InMemoryJournal;
import io.baton.store.BlobStore;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryBlobStore;
import io.baton.store.memory.InMemoryEventStore;
import io.baton.store.memory.InMemoryStores;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The embedded store of {@code baton dev}: the in-memory journal, metadata, blob and event stores
 * (so the same semantics and the same compliance suites), made durable by a log of every change in
 * one directory, replayed when the store opens. A change is acknowledged only once it is on disk,
 * and memory never holds one that is not (see {@link LoggedChanges}). For one node: it is not
 * shared between processes.
 */
public final class FileStores {
  private FileStores() {}

  /**
   * The opened stores, the highest fencing token their journal holds, and a way to compact the log
   * now (it is compacted by itself as it grows).
   */
  public record Opened(Stores stores, long highestToken, Compaction compaction) {}

  /** Rewrites the log as a snapshot of the store now; returns its new length in bytes. */
  @FunctionalInterface
  public interface Compaction {
    long compact();
  }

  public static Opened open(Path dir, Clock clock) {
    return open(dir, clock, BlobStore.DEFAULT_MAX_BLOB_BYTES);
  }

  /** Opens the store; blobs larger than {@code maxBlobBytes} are refused. */
  public static Opened open(Path dir, Clock clock, int maxBlobBytes) {
    return open(dir, clock, maxBlobBytes, LogFile.SYSTEM);
  }

  /**
   * The log is compacted (rewritten as a snapshot: finished trees deleted by retention and answered
   * signals leave no trace) once it is longer than this and twice as long as after the last
   * compaction.
   */
  public static final long DEFAULT_COMPACT_AFTER_BYTES = 64L * 1024 * 1024;

  /** Opens the store on log files that {@code files} opens (tests make them fail). */
  static Opened open(Path dir, Clock clock, int maxBlobBytes, LogFile.Opener files) {
    return open(dir, maxBlobBytes, files, DEFAULT_COMPACT_AFTER_BYTES);
  }

  /** Opens the store, compacting its log past {@code compactAfterBytes} (tests make it small). */
  static Opened open(Path dir, int maxBlobBytes, LogFile.Opener files, long compactAfterBytes) {
    Stores memory = InMemoryStores.create(maxBlobBytes);
    AtomicLong highestToken = new AtomicLong();
    Replayer replayer = new Replayer(memory, highestToken);
    MutationLog log = MutationLog.open(dir, replayer::apply, files);
    LoggedChanges changes = new LoggedChanges(memory, log, highestToken, compactAfterBytes);
    // a log that grew past the limit before a restart is compacted at once, so the next start is
    // fast too
    changes.compactIfGrown();
    Stores stores =
        new Stores(
            new LoggedJournal((InMemoryJournal) memory.journal(), changes, highestToken),
            new LoggedMetadataStore(memory.metadata(), changes),
            new LoggedBlobStore((InMemoryBlobStore) memory.blobs(), changes),
            new LoggedEventStore((InMemoryEventStore) memory.events(), changes),
            // API keys and the audit record are kept in memory only: a dev node's stored keys last
            // until it stops (keys that must outlive it go in auth.keysFile).
            memory.access(),
            log);
    return new Opened(stores, highestToken.get(), changes::compact);
  }

  /** Applies one logged change to the in-memory stores. */
  private record Replayer(Stores memory, AtomicLong highestToken) {
    void apply(JsonNode record) {
      Records.apply(memory, record, highestToken);
    }
  }
}

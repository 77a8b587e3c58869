package io.baton.node.embedded;

import com.fasterxml.jackson.databind.JsonNode;
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

  /** The opened stores, and the highest fencing token their journal holds. */
  public record Opened(Stores stores, long highestToken) {}

  public static Opened open(Path dir, Clock clock) {
    return open(dir, clock, BlobStore.DEFAULT_MAX_BLOB_BYTES);
  }

  /** Opens the store; blobs larger than {@code maxBlobBytes} are refused. */
  public static Opened open(Path dir, Clock clock, int maxBlobBytes) {
    return open(dir, clock, maxBlobBytes, LogFile.SYSTEM);
  }

  /** Opens the store on log files that {@code files} opens (tests make them fail). */
  static Opened open(Path dir, Clock clock, int maxBlobBytes, LogFile.Opener files) {
    Stores memory = InMemoryStores.create(maxBlobBytes);
    AtomicLong highestToken = new AtomicLong();
    Replayer replayer = new Replayer(memory, highestToken);
    MutationLog log = MutationLog.open(dir, replayer::apply, files);
    LoggedChanges changes = new LoggedChanges(memory, log, highestToken);
    Stores stores =
        new Stores(
            new LoggedJournal(memory.journal(), changes, highestToken),
            new LoggedMetadataStore(memory.metadata(), changes),
            new LoggedBlobStore((InMemoryBlobStore) memory.blobs(), changes),
            new LoggedEventStore((InMemoryEventStore) memory.events(), changes),
            log);
    return new Opened(stores, highestToken.get());
  }

  /** Applies one logged change to the in-memory stores. */
  private record Replayer(Stores memory, AtomicLong highestToken) {
    void apply(JsonNode record) {
      Records.apply(memory, record, highestToken);
    }
  }
}

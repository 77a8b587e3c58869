package io.baton.node.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The embedded store of {@code baton dev}: the in-memory journal, metadata and blob stores (so the
 * same semantics and the same compliance suites), made durable by a log of every change in one
 * directory, replayed when the store opens. For one node: it is not shared between processes.
 */
public final class FileStores {
  private FileStores() {}

  /** The opened stores, and the highest fencing token their journal holds. */
  public record Opened(Stores stores, long highestToken) {}

  public static Opened open(Path dir, Clock clock) {
    return open(dir, clock, io.baton.store.BlobStore.DEFAULT_MAX_BLOB_BYTES);
  }

  /** Opens the store; blobs larger than {@code maxBlobBytes} are refused. */
  public static Opened open(Path dir, Clock clock, int maxBlobBytes) {
    Stores memory = InMemoryStores.create(clock, maxBlobBytes);
    AtomicLong highestToken = new AtomicLong();
    Replayer replayer = new Replayer(memory, highestToken);
    MutationLog log = MutationLog.open(dir, replayer::apply);
    Stores stores =
        new Stores(
            new LoggedJournal(memory.journal(), log, highestToken),
            new LoggedMetadataStore(memory.metadata(), log),
            new LoggedBlobStore(memory.blobs(), log),
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

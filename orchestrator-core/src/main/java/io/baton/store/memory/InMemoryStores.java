package io.baton.store.memory;

import io.baton.store.Stores;
import java.time.Clock;

/** Creates the in-memory journal, metadata store and blob store that belong together. */
public final class InMemoryStores {
  private InMemoryStores() {}

  public static Stores create(Clock clock) {
    return create(clock, InMemoryBlobStore.DEFAULT_MAX_BLOB_BYTES);
  }

  /** Stores whose blob store refuses blobs larger than {@code maxBlobBytes}. */
  public static Stores create(Clock clock, int maxBlobBytes) {
    InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    ProjectingInMemoryJournal journal = new ProjectingInMemoryJournal(metadata);
    return new Stores(journal, metadata, new InMemoryBlobStore(maxBlobBytes), null);
  }
}

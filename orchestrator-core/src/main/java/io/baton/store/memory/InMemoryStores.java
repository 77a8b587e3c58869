package io.baton.store.memory;

import io.baton.store.Stores;

/** Creates the in-memory journal, metadata, blob and event stores that belong together. */
public final class InMemoryStores {
  private InMemoryStores() {}

  public static Stores create() {
    return create(InMemoryBlobStore.DEFAULT_MAX_BLOB_BYTES);
  }

  /** Stores whose blob store refuses blobs larger than {@code maxBlobBytes}. */
  public static Stores create(int maxBlobBytes) {
    InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    InMemoryEventStore events = new InMemoryEventStore();
    ProjectingInMemoryJournal journal = new ProjectingInMemoryJournal(metadata, events);
    InMemoryBlobStore blobs = new InMemoryBlobStore(maxBlobBytes);
    metadata.attach(journal, blobs);
    return new Stores(journal, metadata, blobs, events, new InMemoryAccessStore(), null);
  }
}

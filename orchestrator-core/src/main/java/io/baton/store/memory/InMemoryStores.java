package io.baton.store.memory;

import io.baton.store.Stores;
import java.time.Clock;

/** Creates the in-memory journal, metadata store and blob store that belong together. */
public final class InMemoryStores {
  private InMemoryStores() {}

  public static Stores create(Clock clock) {
    InMemoryMetadataStore metadata = new InMemoryMetadataStore(clock);
    ProjectingInMemoryJournal journal = new ProjectingInMemoryJournal(metadata);
    return new Stores(journal, metadata, new InMemoryBlobStore(), null);
  }
}

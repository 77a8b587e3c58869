package io.baton.store;

import io.baton.journal.ExecutionJournal;
import java.util.Objects;

/**
 * The stores a node writes to. They come as one because the journal maintains the metadata store's
 * run rows (and the event outbox, for events steps emit) in the transaction of each append: they
 * must be backed by the same database.
 */
// close() throws what the resources throw, an interrupt while a pool drains included.
@SuppressWarnings("try")
public record Stores(
    ExecutionJournal journal,
    MetadataStore metadata,
    BlobStore blobs,
    EventStore events,
    AutoCloseable resources)
    implements AutoCloseable {
  public Stores {
    Objects.requireNonNull(journal, "journal");
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(blobs, "blobs");
    Objects.requireNonNull(events, "events");
    resources = resources == null ? () -> {} : resources;
  }

  /** Stores that keep no events: an empty event store that refuses to record any. */
  public Stores(
      ExecutionJournal journal, MetadataStore metadata, BlobStore blobs, AutoCloseable resources) {
    this(journal, metadata, blobs, NoEventStore.INSTANCE, resources);
  }

  @Override
  public void close() throws Exception {
    resources.close();
  }
}

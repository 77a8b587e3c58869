package io.baton.store;

import io.baton.journal.ExecutionJournal;
import java.util.Objects;

/**
 * The stores a node writes to. They come as one because the journal maintains the metadata store's
 * run rows (and the event outbox, for events steps emit) in the transaction of each append: they
 * must be backed by the same database. The {@link AccessStore} (API keys, the audit record) lives
 * there too, so that every node sees a key revoked on any of them.
 */
// close() throws what the resources throw, an interrupt while a pool drains included.
@SuppressWarnings("try")
public record Stores(
    ExecutionJournal journal,
    MetadataStore metadata,
    BlobStore blobs,
    EventStore events,
    AccessStore access,
    AutoCloseable resources)
    implements AutoCloseable {
  public Stores {
    Objects.requireNonNull(journal, "journal");
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(blobs, "blobs");
    Objects.requireNonNull(events, "events");
    Objects.requireNonNull(access, "access");
    resources = resources == null ? () -> {} : resources;
  }

  /** Stores that keep no API keys or audit record (an empty store that refuses to record). */
  public Stores(
      ExecutionJournal journal,
      MetadataStore metadata,
      BlobStore blobs,
      EventStore events,
      AutoCloseable resources) {
    this(journal, metadata, blobs, events, NoAccessStore.INSTANCE, resources);
  }

  /** Stores that keep no events: an empty event store that refuses to record any. */
  public Stores(
      ExecutionJournal journal, MetadataStore metadata, BlobStore blobs, AutoCloseable resources) {
    this(journal, metadata, blobs, NoEventStore.INSTANCE, NoAccessStore.INSTANCE, resources);
  }

  @Override
  public void close() throws Exception {
    resources.close();
  }
}

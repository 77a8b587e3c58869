package io.baton.store.postgres;

import io.baton.store.CloudEvent;
import io.baton.store.EventFilter;
import io.baton.store.EventReceipt;
import io.baton.store.EventStore;
import io.baton.store.StoredEvent;
import io.baton.store.postgres.internal.Database;
import io.baton.store.postgres.internal.EventRows;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The {@link EventStore} on PostgreSQL: {@code events} unique on {@code (source, id)}, and an
 * {@code event_outbox} that several nodes drain with {@code FOR UPDATE SKIP LOCKED}. Transient
 * failures are retried like every other call of the store. Thread-safe.
 */
public final class PostgresEventStore implements EventStore {
  private final EventRows rows;

  PostgresEventStore(Database database) {
    this.rows = new EventRows(database);
  }

  @Override
  public EventReceipt record(CloudEvent event, Instant receivedAt) {
    return rows.record(event, receivedAt);
  }

  @Override
  public List<EventReceipt> recordAll(List<CloudEvent> batch, Instant receivedAt) {
    return rows.recordAll(batch, receivedAt);
  }

  @Override
  public Optional<StoredEvent> find(String source, String id) {
    return rows.find(source, id);
  }

  @Override
  public Optional<StoredEvent> find(long seq) {
    return rows.find(seq);
  }

  @Override
  public List<StoredEvent> find(EventFilter filter, int limit) {
    return rows.find(filter, limit);
  }

  @Override
  public long count(EventFilter filter) {
    return rows.count(filter);
  }

  @Override
  public List<StoredEvent> untriggered(Instant receivedBy, int limit) {
    return rows.untriggered(receivedBy, limit);
  }

  @Override
  public void markTriggered(Collection<Long> seqs, Instant at) {
    rows.markTriggered(seqs, at);
  }

  @Override
  public void addToOutbox(List<CloudEvent> events, Instant at) {
    rows.addToOutbox(events, at);
  }

  @Override
  public List<StoredEvent> drainOutbox(int limit, Instant receivedAt) {
    return rows.drainOutbox(limit, receivedAt);
  }

  @Override
  public long outboxSize() {
    return rows.outboxSize();
  }

  @Override
  public int deleteTriggeredBefore(Instant cutoff) {
    return rows.deleteTriggeredBefore(cutoff);
  }
}

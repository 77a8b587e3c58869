package io.baton.store;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The event store of stores built without one: always empty, and refusing to record. Reads and the
 * dispatcher's drains answer "nothing", so a node on such stores runs, it just takes no events.
 */
enum NoEventStore implements EventStore {
  INSTANCE;

  @Override
  public EventReceipt record(CloudEvent event, Instant receivedAt) {
    throw refused();
  }

  @Override
  public Optional<StoredEvent> find(String source, String id) {
    return Optional.empty();
  }

  @Override
  public Optional<StoredEvent> find(long seq) {
    return Optional.empty();
  }

  @Override
  public List<StoredEvent> find(EventFilter filter, int limit) {
    return List.of();
  }

  @Override
  public long count(EventFilter filter) {
    return 0;
  }

  @Override
  public List<StoredEvent> untriggered(Instant receivedBy, int limit) {
    return List.of();
  }

  @Override
  public void markTriggered(Collection<Long> seqs, Instant at) {}

  @Override
  public void addToOutbox(List<CloudEvent> events, Instant at) {
    throw refused();
  }

  @Override
  public List<StoredEvent> drainOutbox(int limit, Instant receivedAt) {
    return List.of();
  }

  @Override
  public long outboxSize() {
    return 0;
  }

  @Override
  public int deleteTriggeredBefore(Instant cutoff) {
    return 0;
  }

  @Override
  public boolean keepsEvents() {
    return false;
  }

  private static UnsupportedOperationException refused() {
    return new UnsupportedOperationException("these stores keep no events");
  }
}

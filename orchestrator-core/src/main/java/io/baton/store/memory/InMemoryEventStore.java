package io.baton.store.memory;

import io.baton.store.CloudEvent;
import io.baton.store.EventFilter;
import io.baton.store.EventReceipt;
import io.baton.store.EventStore;
import io.baton.store.StoredEvent;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The events and the outbox in memory, under one lock (so a drain is as atomic as PostgreSQL's
 * transaction). Times are kept to the microsecond, as PostgreSQL keeps them. Thread-safe.
 */
public final class InMemoryEventStore implements EventStore {
  private final Map<Key, StoredEvent> bySourceAndId = new LinkedHashMap<>();
  private final Deque<CloudEvent> outbox = new ArrayDeque<>();
  private long lastSeq;

  private record Key(String source, String id) {
    static Key of(CloudEvent event) {
      return new Key(event.source(), event.id());
    }
  }

  @Override
  public synchronized EventReceipt record(CloudEvent event, Instant receivedAt) {
    StoredEvent existing = bySourceAndId.get(Key.of(event));
    if (existing != null) {
      return new EventReceipt(existing, true);
    }
    StoredEvent stored =
        new StoredEvent(++lastSeq, event, receivedAt.truncatedTo(ChronoUnit.MICROS), null);
    bySourceAndId.put(Key.of(event), stored);
    return new EventReceipt(stored, false);
  }

  @Override
  public synchronized Optional<StoredEvent> find(long seq) {
    return bySourceAndId.values().stream().filter(stored -> stored.seq() == seq).findFirst();
  }

  /** Every stored event, in the order received (the embedded store's snapshot). */
  public synchronized List<StoredEvent> all() {
    return List.copyOf(bySourceAndId.values());
  }

  /** The events in the outbox, oldest first (the embedded store's snapshot). */
  public synchronized List<CloudEvent> outboxContents() {
    return List.copyOf(outbox);
  }

  /** The last sequence number given, whether or not its event is still kept. */
  public synchronized long lastSeq() {
    return lastSeq;
  }

  /**
   * Puts back an event as it was stored, its sequence number and marks included, and counts the
   * sequence on from at least {@code lastSeq} (the embedded store rebuilding from a snapshot).
   */
  public synchronized void restore(StoredEvent stored, long lastSeq) {
    bySourceAndId.put(Key.of(stored.event()), stored);
    this.lastSeq = Math.max(this.lastSeq, Math.max(lastSeq, stored.seq()));
  }

  /** Counts the sequence on from at least {@code lastSeq}. */
  public synchronized void restoreLastSeq(long lastSeq) {
    this.lastSeq = Math.max(this.lastSeq, lastSeq);
  }

  /** Forgets every event and the outbox (the embedded store rebuilds memory from its log). */
  public synchronized void clear() {
    bySourceAndId.clear();
    outbox.clear();
    lastSeq = 0;
  }

  @Override
  public synchronized Optional<StoredEvent> find(String source, String id) {
    return Optional.ofNullable(bySourceAndId.get(new Key(source, id)));
  }

  @Override
  public synchronized List<StoredEvent> find(EventFilter filter, int limit) {
    return bySourceAndId.values().stream().filter(filter::test).limit(limit).toList();
  }

  @Override
  public synchronized long count(EventFilter filter) {
    return bySourceAndId.values().stream().filter(filter::test).count();
  }

  @Override
  public synchronized List<StoredEvent> untriggered(Instant receivedBy, int limit) {
    return bySourceAndId.values().stream()
        .filter(stored -> !stored.triggered() && !stored.receivedAt().isAfter(receivedBy))
        .limit(limit)
        .toList();
  }

  @Override
  public synchronized void markTriggered(Collection<Long> seqs, Instant at) {
    Instant micros = at.truncatedTo(ChronoUnit.MICROS);
    bySourceAndId.replaceAll(
        (key, stored) ->
            stored.triggered() || !seqs.contains(stored.seq())
                ? stored
                : new StoredEvent(stored.seq(), stored.event(), stored.receivedAt(), micros));
  }

  @Override
  public synchronized void addToOutbox(List<CloudEvent> events, Instant at) {
    outbox.addAll(events);
  }

  @Override
  public synchronized List<StoredEvent> drainOutbox(int limit, Instant receivedAt) {
    List<StoredEvent> stored = new ArrayList<>();
    for (int i = 0; i < limit && !outbox.isEmpty(); i++) {
      EventReceipt receipt = record(outbox.removeFirst(), receivedAt);
      if (!receipt.duplicate()) {
        stored.add(receipt.stored());
      }
    }
    return stored;
  }

  @Override
  public synchronized long outboxSize() {
    return outbox.size();
  }

  @Override
  public synchronized int deleteTriggeredBefore(Instant cutoff) {
    int before = bySourceAndId.size();
    bySourceAndId.values().removeIf(s -> s.triggered() && s.receivedAt().isBefore(cutoff));
    return before - bySourceAndId.size();
  }
}

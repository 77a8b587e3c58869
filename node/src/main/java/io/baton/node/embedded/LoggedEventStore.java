package io.baton.node.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.store.CloudEvent;
import io.baton.store.EventFilter;
import io.baton.store.EventReceipt;
import io.baton.store.EventStore;
import io.baton.store.StoredEvent;
import io.baton.store.memory.InMemoryEventStore;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The in-memory event store made durable: every change (an event stored, a mark, the outbox filled
 * or drained, old events deleted) is logged before the call returns, as the operation and its
 * arguments; replaying the operations in the log's order rebuilds the same events with the same
 * sequence numbers, so a restarted {@code baton dev} still answers duplicates and replays. Changes
 * that change nothing (a duplicate, an empty drain) are not logged. Thread-safe.
 */
final class LoggedEventStore implements EventStore {
  private final InMemoryEventStore delegate;
  private final LoggedChanges changes;

  LoggedEventStore(InMemoryEventStore delegate, LoggedChanges changes) {
    this.delegate = delegate;
    this.changes = changes;
  }

  @Override
  public EventReceipt record(CloudEvent event, Instant receivedAt) {
    return changes.apply(
        () -> delegate.record(event, receivedAt),
        receipt ->
            receipt.duplicate() ? List.of() : List.of(Records.eventStored(event, receivedAt)));
  }

  @Override
  public List<EventReceipt> recordAll(List<CloudEvent> batch, Instant receivedAt) {
    return changes.apply(
        () -> delegate.recordAll(batch, receivedAt),
        receipts ->
            receipts.stream()
                .filter(receipt -> !receipt.duplicate())
                .<JsonNode>map(receipt -> Records.eventStored(receipt.stored().event(), receivedAt))
                .toList());
  }

  @Override
  public Optional<StoredEvent> find(String source, String id) {
    return delegate.find(source, id);
  }

  @Override
  public Optional<StoredEvent> find(long seq) {
    return delegate.find(seq);
  }

  @Override
  public List<StoredEvent> find(EventFilter filter, int limit) {
    return delegate.find(filter, limit);
  }

  @Override
  public long count(EventFilter filter) {
    return delegate.count(filter);
  }

  @Override
  public List<StoredEvent> untriggered(Instant receivedBy, int limit) {
    return delegate.untriggered(receivedBy, limit);
  }

  @Override
  public void markTriggered(Collection<Long> seqs, Instant at) {
    if (seqs.isEmpty()) {
      return;
    }
    changes.apply(
        () -> {
          delegate.markTriggered(seqs, at);
          return null;
        },
        done -> List.of(Records.eventsTriggered(seqs, at)));
  }

  @Override
  public void addToOutbox(List<CloudEvent> events, Instant at) {
    if (events.isEmpty()) {
      return;
    }
    changes.apply(
        () -> {
          delegate.addToOutbox(events, at);
          return null;
        },
        done -> List.of(Records.outboxAdded(events, at)));
  }

  @Override
  public List<StoredEvent> drainOutbox(int limit, Instant receivedAt) {
    return changes
        .apply(
            () -> new Drained(delegate.outboxSize() > 0, delegate.drainOutbox(limit, receivedAt)),
            drained ->
                drained.tookAny() ? List.of(Records.outboxDrained(limit, receivedAt)) : List.of())
        .stored();
  }

  private record Drained(boolean tookAny, List<StoredEvent> stored) {}

  @Override
  public long outboxSize() {
    return delegate.outboxSize();
  }

  @Override
  public int deleteTriggeredBefore(Instant cutoff) {
    return changes.apply(
        () -> delegate.deleteTriggeredBefore(cutoff),
        deleted -> deleted > 0 ? List.of(Records.eventsDeleted(cutoff)) : List.of());
  }
}

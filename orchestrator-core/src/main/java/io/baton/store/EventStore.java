package io.baton.store;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The events Baton has received and the outbox of events still to receive.
 *
 * <p>An event is identified by its {@code (source, id)}: recording it again is answered with the
 * stored one and changes nothing. Each stored event is {@linkplain StoredEvent#triggered()
 * triggered} once every run it starts has been created; until then any node may (re)trigger it, and
 * the runs' own dedup keys make that safe.
 *
 * <p>The outbox holds events written by someone else's transaction (an application's, through the
 * client, or a step's journal append). {@link #drainOutbox} moves them into the store in one
 * transaction, and concurrent drains on several nodes take disjoint rows; an outbox row is gone
 * only once its event is stored. Implementations are thread-safe and pass {@code
 * EventStoreComplianceSuite}.
 */
public interface EventStore {

  /** Stores the event unless one with the same {@code (source, id)} is stored. */
  EventReceipt record(CloudEvent event, Instant receivedAt);

  /**
   * Stores each event of a batch as {@link #record} would, in one transaction where the store has
   * them; the receipts are in the batch's order. An event whose {@code (source, id)} appears
   * earlier in the same batch is a duplicate of that one.
   */
  default List<EventReceipt> recordAll(List<CloudEvent> batch, Instant receivedAt) {
    return batch.stream().map(event -> record(event, receivedAt)).toList();
  }

  Optional<StoredEvent> find(String source, String id);

  /** The stored event with this {@link StoredEvent#seq()}. */
  Optional<StoredEvent> find(long seq);

  /** Stored events that pass the filter, in order of receipt, at most {@code limit}. */
  List<StoredEvent> find(EventFilter filter, int limit);

  long count(EventFilter filter);

  /** Events not yet triggered that were received at or before {@code receivedBy}, oldest first. */
  List<StoredEvent> untriggered(Instant receivedBy, int limit);

  /** Marks events (by {@link StoredEvent#seq()}) triggered; already marked ones keep their time. */
  void markTriggered(Collection<Long> seqs, Instant at);

  /** Puts events in the outbox (what the client does in the application's transaction). */
  void addToOutbox(List<CloudEvent> events, Instant at);

  /**
   * Moves up to {@code limit} of the oldest outbox events into the store, as {@link #record} would,
   * and deletes their outbox rows, in one transaction. Rows another drain holds are skipped.
   *
   * @return the events this call stored that were not stored before, in outbox order
   */
  List<StoredEvent> drainOutbox(int limit, Instant receivedAt);

  /** How many events wait in the outbox. */
  long outboxSize();

  /** Deletes triggered events received before {@code cutoff}; returns how many. */
  int deleteTriggeredBefore(Instant cutoff);

  /**
   * Whether this store keeps events at all ({@code false} only for the empty store of {@link
   * Stores} built without one): a node runs no event dispatcher on a store that keeps none.
   */
  default boolean keepsEvents() {
    return true;
  }
}

package io.baton.node.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.store.FlowRecord;
import io.baton.store.ForwardingMetadataStore;
import io.baton.store.MetadataStore;
import io.baton.store.Signal;
import io.baton.store.SignalType;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * The in-memory metadata store made durable: flows, signals and deleted trees are logged before the
 * call returns (run rows need no log of their own: they are projected again when the journal is
 * replayed; retention deadlines neither: the retention job gives them again after a restart, from
 * the same finishes and flows); a change that cannot be logged is not kept (see {@link
 * LoggedChanges}). Thread-safe.
 */
final class LoggedMetadataStore extends ForwardingMetadataStore {
  private final LoggedChanges changes;

  LoggedMetadataStore(MetadataStore delegate, LoggedChanges changes) {
    super(delegate);
    this.changes = changes;
  }

  @Override
  public void saveFlow(FlowRecord flow) {
    changes.apply(
        () -> {
          delegate.saveFlow(flow);
          return null;
        },
        done -> List.of(Records.flow(flow)));
  }

  @Override
  public Signal addSignal(UUID runId, SignalType type, String step, JsonNode payload, Instant now) {
    return changes.apply(
        () -> delegate.addSignal(runId, type, step, payload, now),
        signal -> List.of(Records.signal(runId, type, step, payload, now)));
  }

  @Override
  public void deleteSignals(Collection<Long> signalIds) {
    changes.apply(
        () -> {
          delegate.deleteSignals(signalIds);
          return null;
        },
        done -> List.of(Records.signalsDeleted(List.copyOf(signalIds))));
  }

  @Override
  public List<UUID> deleteExpired(Instant now, int limit) {
    return changes.apply(() -> delegate.deleteExpired(now, limit), Records::treesDeleted);
  }

  @Override
  public Discarded discardTree(UUID rootRunId) {
    return changes.apply(
        () -> delegate.discardTree(rootRunId),
        outcome ->
            outcome == Discarded.DELETED ? Records.treesDeleted(List.of(rootRunId)) : List.of());
  }
}

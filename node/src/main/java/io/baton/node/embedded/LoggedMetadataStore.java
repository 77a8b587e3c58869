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
 * The in-memory metadata store made durable: flows, signals and healed owners are logged (run rows
 * need no log of their own: they are projected again when the journal is replayed). Thread-safe.
 */
final class LoggedMetadataStore extends ForwardingMetadataStore {
  private final MutationLog log;

  LoggedMetadataStore(MetadataStore delegate, MutationLog log) {
    super(delegate);
    this.log = log;
  }

  @Override
  public void saveFlow(FlowRecord flow) {
    synchronized (log) {
      delegate.saveFlow(flow);
      log.write(List.of(Records.flow(flow)));
    }
  }

  @Override
  public Signal addSignal(UUID runId, SignalType type, String step, JsonNode payload, Instant now) {
    synchronized (log) {
      Signal signal = delegate.addSignal(runId, type, step, payload, now);
      log.write(List.of(Records.signal(runId, type, step, payload, now)));
      return signal;
    }
  }

  @Override
  public void deleteSignals(Collection<Long> signalIds) {
    synchronized (log) {
      delegate.deleteSignals(signalIds);
      log.write(List.of(Records.signalsDeleted(List.copyOf(signalIds))));
    }
  }
}

package io.baton.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.RunStatus;
import io.baton.store.ForwardingMetadataStore;
import io.baton.store.MetadataStore;
import io.baton.store.RunRecord;
import io.baton.store.Signal;
import io.baton.store.SignalType;
import io.baton.store.StoreUnavailableException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One node's way to the metadata store: recovery's queries, the signal inbox and the healing of
 * owners fail while the node cannot reach the store, and a failed write may have landed.
 */
final class FaultyMetadata extends ForwardingMetadataStore {
  private final String node;
  private final SimFaults faults;
  private final SignalAudit signals;

  FaultyMetadata(String node, MetadataStore delegate, SimFaults faults, SignalAudit signals) {
    super(delegate);
    this.node = node;
    this.faults = faults;
    this.signals = signals;
  }

  private void reach() {
    if (faults.storeFails(node)) {
      throw new StoreUnavailableException("simulated: node " + node + " lost the store", null);
    }
  }

  @Override
  public List<UUID> findRootsOwnedBy(String nodeId, RunStatus status, int limit) {
    reach();
    return delegate.findRootsOwnedBy(nodeId, status, limit);
  }

  @Override
  public List<UUID> findRunningRootsFencedBelow(String nodeId, long fencedBelow, int limit) {
    reach();
    return delegate.findRunningRootsFencedBelow(nodeId, fencedBelow, limit);
  }

  @Override
  public List<RunRecord> findRunningRootsOutside(Collection<String> liveNodes, int limit) {
    reach();
    return delegate.findRunningRootsOutside(liveNodes, limit);
  }

  @Override
  public List<UUID> findDueWaitingRoots(Instant now, int limit) {
    reach();
    return delegate.findDueWaitingRoots(now, limit);
  }

  @Override
  public List<UUID> findPendingRoots(int limit) {
    reach();
    return delegate.findPendingRoots(limit);
  }

  @Override
  public Map<UUID, List<Signal>> signalsForTrees(Collection<UUID> rootRunIds) {
    reach();
    return delegate.signalsForTrees(rootRunIds);
  }

  @Override
  public Signal addSignal(UUID runId, SignalType type, String step, JsonNode payload, Instant now) {
    if (faults.storeFails(node)) {
      if (faults.afterWrite()) {
        signals.recorded(delegate.addSignal(runId, type, step, payload, now));
      }
      throw new StoreUnavailableException("simulated: node " + node + " lost the store", null);
    }
    Signal signal = delegate.addSignal(runId, type, step, payload, now);
    signals.recorded(signal);
    return signal;
  }

  @Override
  public void deleteSignals(Collection<Long> signalIds) {
    signals.deleting(signalIds);
    if (faults.storeFails(node)) {
      if (faults.afterWrite()) {
        delegate.deleteSignals(signalIds);
      }
      throw new StoreUnavailableException("simulated: node " + node + " lost the store", null);
    }
    delegate.deleteSignals(signalIds);
  }
}

package io.baton.node.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.RunStatus;
import io.baton.store.FlowRecord;
import io.baton.store.MetadataStore;
import io.baton.store.RunQuery;
import io.baton.store.RunRecord;
import io.baton.store.Signal;
import io.baton.store.SignalType;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The in-memory metadata store made durable: flows, signals and healed owners are logged (run rows
 * need no log of their own: they are projected again when the journal is replayed). Thread-safe.
 */
final class LoggedMetadataStore implements MetadataStore {
  private final MetadataStore delegate;
  private final MutationLog log;

  LoggedMetadataStore(MetadataStore delegate, MutationLog log) {
    this.delegate = delegate;
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
  public Optional<FlowRecord> latestFlow(String name) {
    return delegate.latestFlow(name);
  }

  @Override
  public List<FlowRecord> listFlows() {
    return delegate.listFlows();
  }

  @Override
  public List<FlowRecord> flowVersions(String name) {
    return delegate.flowVersions(name);
  }

  @Override
  public Optional<RunRecord> findRun(UUID runId) {
    return delegate.findRun(runId);
  }

  @Override
  public Optional<RunRecord> findRunByIdempotencyKey(String idempotencyKey) {
    return delegate.findRunByIdempotencyKey(idempotencyKey);
  }

  @Override
  public List<RunRecord> listRuns(RunQuery query) {
    return delegate.listRuns(query);
  }

  @Override
  public List<RunRecord> listTree(UUID rootRunId) {
    return delegate.listTree(rootRunId);
  }

  @Override
  public List<UUID> findRootsOwnedBy(String nodeId, RunStatus status, int limit) {
    return delegate.findRootsOwnedBy(nodeId, status, limit);
  }

  @Override
  public List<RunRecord> findRunningRootsOutside(Collection<String> liveNodes, int limit) {
    return delegate.findRunningRootsOutside(liveNodes, limit);
  }

  @Override
  public List<UUID> findPendingRoots(int limit) {
    return delegate.findPendingRoots(limit);
  }

  @Override
  public List<UUID> findDueWaitingRoots(Instant now, int limit) {
    return delegate.findDueWaitingRoots(now, limit);
  }

  @Override
  public Map<String, Integer> countRunningRootsByNode() {
    return delegate.countRunningRootsByNode();
  }

  @Override
  public Map<RunStatus, Long> countRunsByStatus() {
    return delegate.countRunsByStatus();
  }

  @Override
  public void healOwner(UUID rootRunId, String nodeId) {
    synchronized (log) {
      delegate.healOwner(rootRunId, nodeId);
      log.write(List.of(Records.heal(rootRunId, nodeId)));
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
  public List<Signal> signalsFor(UUID rootRunId) {
    return delegate.signalsFor(rootRunId);
  }

  @Override
  public List<Signal> signalsForNode(String nodeId, int limit) {
    return delegate.signalsForNode(nodeId, limit);
  }

  @Override
  public void deleteSignals(Collection<Long> signalIds) {
    synchronized (log) {
      delegate.deleteSignals(signalIds);
      log.write(List.of(Records.signalsDeleted(List.copyOf(signalIds))));
    }
  }

  @Override
  public void ping() {
    delegate.ping();
  }
}

package io.baton.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.RunStatus;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A metadata store that forwards every call to another; subclasses intercept what they need (the
 * embedded store's durable log). As thread-safe as its delegate.
 */
public abstract class ForwardingMetadataStore implements MetadataStore {
  protected final MetadataStore delegate;

  protected ForwardingMetadataStore(MetadataStore delegate) {
    this.delegate = delegate;
  }

  @Override
  public void saveFlow(FlowRecord flow) {
    delegate.saveFlow(flow);
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
  public RunPage pageRuns(RunFilter filter, RunPosition after, int limit) {
    return delegate.pageRuns(filter, after, limit);
  }

  @Override
  public List<RunRecord> runsChangedAfter(RunPosition after, int limit) {
    return delegate.runsChangedAfter(after, limit);
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
  public List<UUID> findRunningRootsFencedBelow(String nodeId, long fencedBelow, int limit) {
    return delegate.findRunningRootsFencedBelow(nodeId, fencedBelow, limit);
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
  public Signal addSignal(UUID runId, SignalType type, String step, JsonNode payload, Instant now) {
    return delegate.addSignal(runId, type, step, payload, now);
  }

  @Override
  public List<Signal> signalsFor(UUID rootRunId) {
    return delegate.signalsFor(rootRunId);
  }

  @Override
  public Map<UUID, List<Signal>> signalsForTrees(Collection<UUID> rootRunIds) {
    return delegate.signalsForTrees(rootRunIds);
  }

  @Override
  public void deleteSignals(Collection<Long> signalIds) {
    delegate.deleteSignals(signalIds);
  }

  @Override
  public void ping() {
    delegate.ping();
  }

  @Override
  public List<FinishedTree> finishedWithoutDeadline(int limit) {
    return delegate.finishedWithoutDeadline(limit);
  }

  @Override
  public void setDeadlines(Collection<Deadline> deadlines) {
    delegate.setDeadlines(deadlines);
  }

  @Override
  public List<UUID> deleteExpired(Instant now, int limit) {
    return delegate.deleteExpired(now, limit);
  }

  @Override
  public Discarded discardTree(UUID rootRunId) {
    return delegate.discardTree(rootRunId);
  }
}

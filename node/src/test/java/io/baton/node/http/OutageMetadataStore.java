package io.baton.node.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.RunStatus;
import io.baton.store.FlowRecord;
import io.baton.store.MetadataStore;
import io.baton.store.RunQuery;
import io.baton.store.RunRecord;
import io.baton.store.Signal;
import io.baton.store.SignalType;
import io.baton.store.StoreUnavailableException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A metadata store that can be cut off: while {@link #down} is set, every call fails with {@link
 * StoreUnavailableException}, as a real store does when its database does not answer.
 */
final class OutageMetadataStore implements MetadataStore {
  private final MetadataStore delegate;
  private volatile boolean down;

  OutageMetadataStore(MetadataStore delegate) {
    this.delegate = delegate;
  }

  void down(boolean down) {
    this.down = down;
  }

  private <T> T call(Supplier<T> action) {
    if (down) {
      throw new StoreUnavailableException("the metadata store does not answer (test outage)", null);
    }
    return action.get();
  }

  private void run(Runnable action) {
    call(
        () -> {
          action.run();
          return null;
        });
  }

  @Override
  public void saveFlow(FlowRecord flow) {
    run(() -> delegate.saveFlow(flow));
  }

  @Override
  public Optional<FlowRecord> latestFlow(String name) {
    return call(() -> delegate.latestFlow(name));
  }

  @Override
  public List<FlowRecord> listFlows() {
    return call(delegate::listFlows);
  }

  @Override
  public List<FlowRecord> flowVersions(String name) {
    return call(() -> delegate.flowVersions(name));
  }

  @Override
  public Optional<RunRecord> findRun(UUID runId) {
    return call(() -> delegate.findRun(runId));
  }

  @Override
  public Optional<RunRecord> findRunByIdempotencyKey(String idempotencyKey) {
    return call(() -> delegate.findRunByIdempotencyKey(idempotencyKey));
  }

  @Override
  public List<RunRecord> listRuns(RunQuery query) {
    return call(() -> delegate.listRuns(query));
  }

  @Override
  public List<RunRecord> listTree(UUID rootRunId) {
    return call(() -> delegate.listTree(rootRunId));
  }

  @Override
  public List<UUID> findRootsOwnedBy(String nodeId, RunStatus status, int limit) {
    return call(() -> delegate.findRootsOwnedBy(nodeId, status, limit));
  }

  @Override
  public List<RunRecord> findRunningRootsOutside(Collection<String> liveNodes, int limit) {
    return call(() -> delegate.findRunningRootsOutside(liveNodes, limit));
  }

  @Override
  public List<UUID> findPendingRoots(int limit) {
    return call(() -> delegate.findPendingRoots(limit));
  }

  @Override
  public List<UUID> findDueWaitingRoots(Instant now, int limit) {
    return call(() -> delegate.findDueWaitingRoots(now, limit));
  }

  @Override
  public Map<String, Integer> countRunningRootsByNode() {
    return call(delegate::countRunningRootsByNode);
  }

  @Override
  public Map<RunStatus, Long> countRunsByStatus() {
    return call(delegate::countRunsByStatus);
  }

  @Override
  public void healOwner(UUID rootRunId, String nodeId) {
    run(() -> delegate.healOwner(rootRunId, nodeId));
  }

  @Override
  public Signal addSignal(UUID runId, SignalType type, String step, JsonNode payload, Instant now) {
    return call(() -> delegate.addSignal(runId, type, step, payload, now));
  }

  @Override
  public List<Signal> signalsFor(UUID rootRunId) {
    return call(() -> delegate.signalsFor(rootRunId));
  }

  @Override
  public List<Signal> signalsForNode(String nodeId, int limit) {
    return call(() -> delegate.signalsForNode(nodeId, limit));
  }

  @Override
  public void deleteSignals(Collection<Long> signalIds) {
    run(() -> delegate.deleteSignals(signalIds));
  }

  @Override
  public void ping() {
    run(delegate::ping);
  }
}

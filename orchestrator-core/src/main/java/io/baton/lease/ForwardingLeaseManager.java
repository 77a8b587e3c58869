package io.baton.lease;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * A lease manager that forwards every call to another; subclasses intercept what they need (tests
 * and the simulation inject faults this way). As thread-safe as its delegate.
 */
public abstract class ForwardingLeaseManager implements LeaseManager {
  protected final LeaseManager delegate;

  protected ForwardingLeaseManager(LeaseManager delegate) {
    this.delegate = delegate;
  }

  @Override
  public String nodeId() {
    return delegate.nodeId();
  }

  @Override
  public Duration leaseTtl() {
    return delegate.leaseTtl();
  }

  @Override
  public void start(NodeInfo info) {
    delegate.start(info);
  }

  @Override
  public void announce(NodeInfo info) {
    delegate.announce(info);
  }

  @Override
  public AcquireResult acquire(UUID runId) {
    return delegate.acquire(runId);
  }

  @Override
  public Map<UUID, AcquireResult> acquireAll(Collection<UUID> runIds) {
    return delegate.acquireAll(runIds);
  }

  @Override
  public long nodeToken() {
    return delegate.nodeToken();
  }

  @Override
  public void release(UUID runId) {
    delegate.release(runId);
  }

  @Override
  public Set<UUID> releaseAll(Collection<UUID> runIds) {
    return delegate.releaseAll(runIds);
  }

  @Override
  public void releaseAll() {
    delegate.releaseAll();
  }

  @Override
  public boolean revokeDeadNode(String nodeId, long nodeToken) {
    return delegate.revokeDeadNode(nodeId, nodeToken);
  }

  @Override
  public void standDown() {
    delegate.standDown();
  }

  @Override
  public void resume() {
    delegate.resume();
  }

  @Override
  public Set<UUID> offer(Collection<UUID> runIds, String toNode) {
    return delegate.offer(runIds, toNode);
  }

  @Override
  public Map<UUID, String> offersTo(String nodeId) {
    return delegate.offersTo(nodeId);
  }

  @Override
  public void withdrawOffers(Collection<UUID> runIds, String nodeId) {
    delegate.withdrawOffers(runIds, nodeId);
  }

  @Override
  public void hintPending() {
    delegate.hintPending();
  }

  @Override
  public void heartbeat() {
    delegate.heartbeat();
  }

  @Override
  public Optional<RunLease> getLease(UUID runId) {
    return delegate.getLease(runId);
  }

  @Override
  public LiveNodes liveNodes() {
    return delegate.liveNodes();
  }

  @Override
  public Map<String, Instant> nodeLeaseExpiries() {
    return delegate.nodeLeaseExpiries();
  }

  @Override
  public Subscription watchOrphans(OrphanListener listener) {
    return delegate.watchOrphans(listener);
  }

  @Override
  public ConnectionState state() {
    return delegate.state();
  }

  @Override
  public Subscription onStateChange(Consumer<ConnectionState> listener) {
    return delegate.onStateChange(listener);
  }

  @Override
  public void close() {
    delegate.close();
  }
}

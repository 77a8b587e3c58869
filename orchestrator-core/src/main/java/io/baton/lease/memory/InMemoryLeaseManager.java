package io.baton.lease.memory;

import io.baton.lease.AcquireResult;
import io.baton.lease.ConnectionState;
import io.baton.lease.LeaseKeeper;
import io.baton.lease.LeaseManager;
import io.baton.lease.LeaseUnavailableException;
import io.baton.lease.LiveNodes;
import io.baton.lease.NodeInfo;
import io.baton.lease.OrphanListener;
import io.baton.lease.RunLease;
import io.baton.lease.Subscription;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * One node's {@link LeaseManager} on an {@link InMemoryLeaseService}. {@link #start} refuses at
 * once ({@link io.baton.lease.NodeIdInUseException}) while another manager's lease holds the node
 * id; the caller may start again later. Thread-safe.
 */
public final class InMemoryLeaseManager implements LeaseManager {
  private final String nodeId;
  private final Duration leaseTtl;
  private final InMemoryLeaseService service;
  private final LeaseKeeper keeper;
  private volatile NodeInfo info;
  private volatile long leaseId = -1;
  private final List<Subscription> watches = new CopyOnWriteArrayList<>();

  public InMemoryLeaseManager(
      String nodeId, Duration leaseTtl, InMemoryLeaseService service, Scheduler scheduler) {
    this.nodeId = nodeId;
    this.leaseTtl = leaseTtl;
    this.service = service;
    this.keeper = new LeaseKeeper(nodeId, leaseTtl, scheduler, new Session());
  }

  private final class Session implements LeaseKeeper.Session {
    @Override
    public void grant() {
      leaseId = service.grant(info, leaseTtl, leaseId);
    }

    @Override
    public boolean renew() {
      return service.keepAlive(nodeId, leaseId);
    }
  }

  @Override
  public String nodeId() {
    return nodeId;
  }

  @Override
  public Duration leaseTtl() {
    return leaseTtl;
  }

  @Override
  public void start(NodeInfo info) {
    this.info = info;
    keeper.start();
  }

  @Override
  public void announce(NodeInfo info) {
    this.info = info;
    service.announce(liveLease(), info);
  }

  @Override
  public AcquireResult acquire(UUID runId) {
    return acquireAll(List.of(runId)).get(runId);
  }

  @Override
  public Map<UUID, AcquireResult> acquireAll(Collection<UUID> runIds) {
    return service.acquire(nodeId, liveLease(), runIds);
  }

  @Override
  public long nodeToken() {
    return service.nodeToken(nodeId, liveLease());
  }

  @Override
  public void release(UUID runId) {
    service.release(nodeId, List.of(runId), true);
  }

  @Override
  public Set<UUID> releaseAll(Collection<UUID> runIds) {
    return service.release(nodeId, runIds, false);
  }

  @Override
  public void releaseAll() {
    if (info != null) {
      info = info.asDraining();
    }
    service.revoke(nodeId, leaseId);
    keeper.revoked();
  }

  @Override
  public boolean revokeDeadNode(String nodeId, long nodeToken) {
    return service.revokeDead(this.nodeId, nodeId, nodeToken);
  }

  @Override
  public void standDown() {
    try {
      service.standDown(nodeId, leaseId);
    } finally {
      keeper.standDown();
    }
  }

  @Override
  public void resume() {
    keeper.resume();
  }

  @Override
  public Set<UUID> offer(Collection<UUID> runIds, String toNode) {
    return service.offer(nodeId, liveLease(), runIds, toNode);
  }

  @Override
  public Map<UUID, String> offersTo(String nodeId) {
    return service.offersTo(this.nodeId, nodeId);
  }

  @Override
  public void withdrawOffers(Collection<UUID> runIds, String nodeId) {
    service.withdrawOffers(this.nodeId, runIds, nodeId);
  }

  @Override
  public void hintPending() {
    service.hintPending(nodeId);
  }

  @Override
  public void heartbeat() {
    keeper.heartbeat();
  }

  @Override
  public Optional<RunLease> getLease(UUID runId) {
    return service.lease(runId);
  }

  @Override
  public LiveNodes liveNodes() {
    return service.nodes();
  }

  @Override
  public Map<String, Instant> nodeLeaseExpiries() {
    return service.nodeLeaseExpiries();
  }

  @Override
  public Subscription watchOrphans(OrphanListener listener) {
    Subscription subscription = service.watch(listener);
    watches.add(subscription);
    return () -> {
      watches.remove(subscription);
      subscription.close();
    };
  }

  @Override
  public ConnectionState state() {
    return keeper.state();
  }

  @Override
  public Subscription onStateChange(Consumer<ConnectionState> listener) {
    return keeper.onStateChange(listener);
  }

  @Override
  public void close() {
    keeper.close();
    List.copyOf(watches).forEach(Subscription::close);
    watches.clear();
  }

  private long liveLease() {
    if (keeper.state() != ConnectionState.CONNECTED) {
      throw new LeaseUnavailableException(
          "node " + nodeId + " holds no live lease (" + keeper.state() + ")", nodeId, null);
    }
    return leaseId;
  }
}

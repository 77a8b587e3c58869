package io.baton.sim;

import io.baton.lease.AcquireResult;
import io.baton.lease.ConnectionState;
import io.baton.lease.LeaseManager;
import io.baton.lease.LeaseUnavailableException;
import io.baton.lease.NodeInfo;
import io.baton.lease.Orphan;
import io.baton.lease.OrphanListener;
import io.baton.lease.RunLease;
import io.baton.lease.Subscription;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * One node's lease manager in the simulation: calls fail at random, the watch drops its events
 * while it is "lost", and every grant is recorded so the invariants can check the journal's claims
 * against the lease history.
 */
final class SimLeaseManager implements LeaseManager {
  private final LeaseManager delegate;
  private final SimFaults faults;
  private final Set<String> grants;

  SimLeaseManager(LeaseManager delegate, SimFaults faults, Set<String> grants) {
    this.delegate = delegate;
    this.faults = faults;
    this.grants = grants;
  }

  static String grant(UUID runId, String node, long token) {
    return runId + "|" + node + "|" + token;
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
    return acquireAll(List.of(runId)).get(runId);
  }

  @Override
  public Map<UUID, AcquireResult> acquireAll(Collection<UUID> runIds) {
    if (faults.leaseCallFails()) {
      throw new LeaseUnavailableException("simulated lease failure", nodeId(), null);
    }
    Map<UUID, AcquireResult> results = delegate.acquireAll(runIds);
    results.forEach(
        (run, result) -> {
          if (result instanceof AcquireResult.Acquired acquired) {
            grants.add(grant(run, nodeId(), acquired.token()));
          }
        });
    return results;
  }

  @Override
  public long nodeToken() {
    long token = delegate.nodeToken();
    grants.add(nodeGrant(nodeId(), token));
    return token;
  }

  static String nodeGrant(String node, long token) {
    return "node|" + node + "|" + token;
  }

  @Override
  public void release(UUID runId) {
    delegate.release(runId);
  }

  @Override
  public Set<UUID> releaseAll(Collection<UUID> runIds) {
    if (faults.leaseCallFails()) {
      throw new LeaseUnavailableException("simulated lease failure", nodeId(), null);
    }
    return delegate.releaseAll(runIds);
  }

  @Override
  public void releaseAll() {
    delegate.releaseAll();
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
  public List<NodeInfo> listNodes() {
    return delegate.listNodes();
  }

  @Override
  public Subscription watchOrphans(OrphanListener listener) {
    return delegate.watchOrphans(
        new OrphanListener() {
          @Override
          public void onOrphans(List<Orphan> orphans) {
            if (!faults.watchLost(nodeId())) {
              listener.onOrphans(orphans);
            }
          }

          @Override
          public void onWatchGap(String reason) {
            listener.onWatchGap(reason);
          }

          @Override
          public void onNodeGone(String nodeId, boolean handoff) {
            if (!faults.watchLost(nodeId())) {
              listener.onNodeGone(nodeId, handoff);
            }
          }
        });
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

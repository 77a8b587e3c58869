package io.baton.sim;

import io.baton.lease.AcquireResult;
import io.baton.lease.ForwardingLeaseManager;
import io.baton.lease.LeaseManager;
import io.baton.lease.LeaseUnavailableException;
import io.baton.lease.Orphan;
import io.baton.lease.OrphanListener;
import io.baton.lease.Subscription;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * One node's lease manager in the simulation: calls fail at random, the watch drops its events
 * while it is "lost", and every grant is recorded so the invariants can check the journal's claims
 * against the lease history.
 */
final class SimLeaseManager extends ForwardingLeaseManager {
  private final SimFaults faults;
  private final Set<String> grants;
  private final LeaseLedger ledger;
  private final Runnable loseLease;
  private final Scheduler scheduler;
  private volatile Consumer<String> revokedDeadNode = node -> {};

  /**
   * @param loseLease ends this node's lease at the service and lets the node notice at once
   */
  SimLeaseManager(
      LeaseManager delegate,
      SimFaults faults,
      Set<String> grants,
      LeaseLedger ledger,
      Runnable loseLease,
      Scheduler scheduler) {
    super(delegate);
    this.faults = faults;
    this.grants = grants;
    this.ledger = ledger;
    this.loseLease = loseLease;
    this.scheduler = scheduler;
  }

  /** Tells {@code listener} of every lease this node's failure detector revoked. */
  void onRevokedDeadNode(Consumer<String> listener) {
    this.revokedDeadNode = listener;
  }

  @Override
  public boolean revokeDeadNode(String nodeId, long nodeToken) {
    boolean revoked = super.revokeDeadNode(nodeId, nodeToken);
    if (revoked) {
      revokedDeadNode.accept(nodeId);
    }
    return revoked;
  }

  static String grant(UUID runId, String node, long token) {
    return runId + "|" + node + "|" + token;
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
    long lease = mintNodeToken();
    results.forEach(
        (run, result) -> {
          if (result instanceof AcquireResult.Acquired granted) {
            grants.add(grant(run, nodeId(), granted.token()));
            ledger.runKey(granted.token(), lease);
          }
        });
    loseLeaseMidway();
    return results;
  }

  @Override
  public long nodeToken() {
    long token = mintNodeToken();
    loseLeaseMidway();
    return token;
  }

  private long mintNodeToken() {
    long token = delegate.nodeToken();
    grants.add(nodeGrant(nodeId(), token));
    ledger.nodeToken(token);
    return token;
  }

  /** Ends this node's lease at the service now; the node notices at once. */
  void loseLeaseNow() {
    loseLease.run();
  }

  /** The fault "lease lost midway": the lease ends right after a token was taken from it. */
  private void loseLeaseMidway() {
    if (faults.losesLeaseNow(nodeId())) {
      loseLease.run();
    }
  }

  static String nodeGrant(String node, long token) {
    return "node|" + node + "|" + token;
  }

  @Override
  public Set<UUID> releaseAll(Collection<UUID> runIds) {
    if (faults.leaseCallFails()) {
      throw new LeaseUnavailableException("simulated lease failure", nodeId(), null);
    }
    return delegate.releaseAll(runIds);
  }

  @Override
  public Subscription watchOrphans(OrphanListener listener) {
    return delegate.watchOrphans(
        new OrphanListener() {
          @Override
          public void onOrphans(List<Orphan> orphans) {
            if (!faults.watchLost(nodeId())) {
              late(() -> listener.onOrphans(orphans));
            }
          }

          @Override
          public void onWatchGap(String reason) {
            listener.onWatchGap(reason);
          }

          @Override
          public void onNodeGone(String nodeId, boolean handoff, long revision) {
            if (!faults.watchLost(nodeId())) {
              late(() -> listener.onNodeGone(nodeId, handoff, revision));
            }
          }

          @Override
          public void onPendingRuns(String fromNode) {
            if (!faults.watchLost(nodeId())) {
              late(() -> listener.onPendingRuns(fromNode));
            }
          }
        });
  }

  /** Delivers a watch event now, or late while the lease service is in turmoil. */
  private void late(Runnable delivery) {
    Duration delay = faults.watchDelay();
    if (delay.isZero()) {
      delivery.run();
    } else {
      scheduler.schedule(delay, delivery);
    }
  }
}

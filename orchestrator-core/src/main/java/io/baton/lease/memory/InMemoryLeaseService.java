package io.baton.lease.memory;

import io.baton.lease.AcquireResult;
import io.baton.lease.LeaseUnavailableException;
import io.baton.lease.LiveNodes;
import io.baton.lease.NodeIdInUseException;
import io.baton.lease.NodeInfo;
import io.baton.lease.NotOwnerException;
import io.baton.lease.Orphan;
import io.baton.lease.OrphanListener;
import io.baton.lease.RunLease;
import io.baton.lease.Subscription;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The lease service in process: what etcd is to a real cluster, shared by every node of one JVM
 * (the embedded default, tests and the cluster simulation). Leases expire on the injected
 * scheduler's monotonic time, as etcd's do on its own: stepping the wall clock does not move them.
 * Tokens come from one revision counter, so they only grow. Thread-safe.
 */
public final class InMemoryLeaseService {
  private final Scheduler scheduler;
  private final Map<Long, Lease> leases = new HashMap<>();
  private final Map<String, Long> nodeLeases = new HashMap<>();
  private final Map<UUID, RunKey> runs = new HashMap<>();
  private final Set<String> unreachable = new HashSet<>();

  /** Offers by receiving node: run id to the offering lease. */
  private final Map<String, Map<UUID, Long>> offers = new HashMap<>();

  private final List<OrphanListener> watchers = new CopyOnWriteArrayList<>();
  private long revision;
  private long nextLeaseId = 1;

  public InMemoryLeaseService(Scheduler scheduler) {
    this(scheduler, 0);
  }

  /**
   * A service whose tokens start above {@code initialRevision}: a process that restarts on a
   * durable journal must never issue a token smaller than one the journal already holds.
   */
  public InMemoryLeaseService(Scheduler scheduler, long initialRevision) {
    this.scheduler = scheduler;
    this.revision = initialRevision;
  }

  private static final class Lease {
    final long id;
    final String nodeId;
    final Duration ttl;
    long grantRevision;
    long expiresAtNanos;
    NodeInfo info;
    final Set<UUID> runs = new HashSet<>();

    Lease(long id, String nodeId, Duration ttl, long expiresAtNanos, NodeInfo info) {
      this.id = id;
      this.nodeId = nodeId;
      this.ttl = ttl;
      this.expiresAtNanos = expiresAtNanos;
      this.info = info;
    }
  }

  private record RunKey(String owner, long leaseId, long token) {}

  /** Cuts a node off the service (the simulation's partition): its calls fail until healed. */
  public synchronized void setReachable(String nodeId, boolean reachable) {
    if (reachable) {
      unreachable.remove(nodeId);
    } else {
      unreachable.add(nodeId);
    }
  }

  /**
   * Grants a lease and announces the node on it. {@code replaced} is the caller's previous lease
   * (or -1): if it still lives it is dropped first, as etcd's node session revokes it, so its runs
   * and node key go at a revision below the new node token. A node id held by any other live lease
   * is refused.
   */
  synchronized long grant(NodeInfo info, Duration ttl, long replaced) {
    reach(info.nodeId());
    expireDue();
    Long holder = nodeLeases.get(info.nodeId());
    if (holder != null && holder != replaced) {
      throw new NodeIdInUseException(info.nodeId(), leases.get(holder).info.address());
    }
    Lease previous = leases.get(replaced);
    if (previous != null) {
      drop(previous, false);
    }
    long id = nextLeaseId++;
    Lease lease = new Lease(id, info.nodeId(), ttl, scheduler.nanoTime() + ttl.toNanos(), info);
    leases.put(id, lease);
    nodeLeases.put(info.nodeId(), id);
    lease.grantRevision = ++revision;
    scheduleExpiry(lease);
    return id;
  }

  synchronized boolean keepAlive(String nodeId, long leaseId) {
    reach(nodeId);
    expireDue();
    Lease lease = leases.get(leaseId);
    if (lease == null) {
      return false;
    }
    lease.expiresAtNanos = scheduler.nanoTime() + lease.ttl.toNanos();
    scheduleExpiry(lease);
    return true;
  }

  synchronized long nodeToken(String nodeId, long leaseId) {
    reach(nodeId);
    expireDue();
    return live(leaseId, nodeId).grantRevision;
  }

  synchronized void announce(long leaseId, NodeInfo info) {
    reach(info.nodeId());
    Lease lease = live(leaseId, info.nodeId());
    lease.info = info;
    revision++;
  }

  synchronized Map<UUID, AcquireResult> acquire(
      String nodeId, long leaseId, Collection<UUID> runIds) {
    reach(nodeId);
    expireDue();
    Lease lease = live(leaseId, nodeId);
    Map<UUID, AcquireResult> results = new LinkedHashMap<>();
    for (UUID runId : runIds) {
      RunKey key = runs.get(runId);
      if (key != null && !key.owner().equals(nodeId)) {
        results.put(runId, new AcquireResult.OwnedBy(runId, key.owner(), expiresAt(key)));
        continue;
      }
      if (key != null) {
        leases.get(key.leaseId()).runs.remove(runId);
      }
      long token = ++revision;
      runs.put(runId, new RunKey(nodeId, leaseId, token));
      lease.runs.add(runId);
      results.put(runId, new AcquireResult.Acquired(runId, token));
    }
    return results;
  }

  synchronized Set<UUID> release(String nodeId, Collection<UUID> runIds, boolean strict) {
    reach(nodeId);
    expireDue();
    Set<UUID> notOwned = new HashSet<>();
    for (UUID runId : runIds) {
      RunKey key = runs.get(runId);
      if (key == null) {
        continue;
      }
      if (!key.owner().equals(nodeId)) {
        if (strict) {
          throw new NotOwnerException(runId, nodeId, key.owner());
        }
        notOwned.add(runId);
        continue;
      }
      runs.remove(runId);
      leases.get(key.leaseId()).runs.remove(runId);
      revision++;
    }
    return notOwned;
  }

  /** Drops the node's own lease as a death, not a hand-off (it stands down). */
  synchronized void standDown(String nodeId, long leaseId) {
    reach(nodeId);
    Lease lease = leases.get(leaseId);
    if (lease != null) {
      drop(lease, false);
    }
  }

  synchronized void revoke(String nodeId, long leaseId) {
    reach(nodeId);
    Lease lease = leases.get(leaseId);
    if (lease != null) {
      drop(lease, true);
    }
  }

  /**
   * Drops {@code nodeId}'s lease if it is still the one granted at {@code nodeToken}, as a death,
   * not a hand-off. {@code caller} is the node asking, which must reach the service.
   */
  synchronized boolean revokeDead(String caller, String nodeId, long nodeToken) {
    reach(caller);
    expireDue();
    Long leaseId = nodeLeases.get(nodeId);
    if (leaseId == null || leases.get(leaseId).grantRevision != nodeToken) {
      return false;
    }
    drop(leases.get(leaseId), false);
    return true;
  }

  synchronized Set<UUID> offer(
      String nodeId, long leaseId, Collection<UUID> runIds, String toNode) {
    reach(nodeId);
    expireDue();
    live(leaseId, nodeId);
    Set<UUID> held = release(nodeId, runIds, false);
    Map<UUID, Long> to = offers.computeIfAbsent(toNode, n -> new LinkedHashMap<>());
    for (UUID runId : runIds) {
      if (!held.contains(runId)) {
        to.put(runId, leaseId);
      }
    }
    revision++;
    return held;
  }

  synchronized Map<UUID, String> offersTo(String caller, String nodeId) {
    reach(caller);
    expireDue();
    Map<UUID, String> standing = new LinkedHashMap<>();
    offers
        .getOrDefault(nodeId, Map.of())
        .forEach(
            (runId, leaseId) -> {
              Lease lease = leases.get(leaseId);
              if (lease != null) {
                standing.put(runId, lease.nodeId);
              }
            });
    return standing;
  }

  synchronized void withdrawOffers(String caller, Collection<UUID> runIds, String nodeId) {
    reach(caller);
    Map<UUID, Long> to = offers.get(nodeId);
    if (to != null) {
      runIds.forEach(to::remove);
      revision++;
    }
  }

  synchronized Optional<RunLease> lease(UUID runId) {
    expireDue();
    RunKey key = runs.get(runId);
    return key == null
        ? Optional.empty()
        : Optional.of(new RunLease(runId, key.owner(), key.token(), expiresAt(key)));
  }

  synchronized LiveNodes nodes() {
    expireDue();
    List<NodeInfo> nodes = new ArrayList<>();
    Map<String, Long> tokens = new HashMap<>();
    for (long leaseId : nodeLeases.values()) {
      Lease lease = leases.get(leaseId);
      nodes.add(lease.info);
      tokens.put(lease.nodeId, lease.grantRevision);
    }
    return new LiveNodes(nodes, revision, tokens);
  }

  /** Tells every watcher that {@code nodeId} stored runs PENDING; see LeaseManager#hintPending. */
  synchronized void hintPending(String nodeId) {
    reach(nodeId);
    revision++;
    List<OrphanListener> targets = List.copyOf(watchers);
    scheduler.execute(() -> targets.forEach(watcher -> watcher.onPendingRuns(nodeId)));
  }

  synchronized Map<String, Instant> nodeLeaseExpiries() {
    expireDue();
    Map<String, Instant> expiries = new HashMap<>();
    Instant now = scheduler.now();
    long nanos = scheduler.nanoTime();
    for (long leaseId : nodeLeases.values()) {
      Lease lease = leases.get(leaseId);
      expiries.put(lease.nodeId, now.plusNanos(lease.expiresAtNanos - nanos));
    }
    return expiries;
  }

  Subscription watch(OrphanListener listener) {
    watchers.add(listener);
    return () -> watchers.remove(listener);
  }

  /** Expires every lease whose time has come; called on every operation and by timers. */
  public synchronized void expireDue() {
    long now = scheduler.nanoTime();
    for (Lease lease : List.copyOf(leases.values())) {
      if (now - lease.expiresAtNanos >= 0) {
        drop(lease, false);
      }
    }
  }

  private void drop(Lease lease, boolean revoked) {
    leases.remove(lease.id);
    offers.values().forEach(to -> to.values().removeIf(id -> id == lease.id));
    long deletedAt = ++revision;
    boolean nodeGone = nodeLeases.getOrDefault(lease.nodeId, -1L) == lease.id;
    if (nodeGone) {
      nodeLeases.remove(lease.nodeId);
      List<OrphanListener> targets = List.copyOf(watchers);
      scheduler.execute(
          () -> targets.forEach(watcher -> watcher.onNodeGone(lease.nodeId, revoked, deletedAt)));
    }
    List<Orphan> orphans = new ArrayList<>();
    for (UUID runId : lease.runs) {
      runs.remove(runId);
      orphans.add(new Orphan(runId, lease.nodeId, revoked));
    }
    if (!orphans.isEmpty()) {
      orphans.sort((a, b) -> a.runId().compareTo(b.runId()));
      List<OrphanListener> targets = List.copyOf(watchers);
      scheduler.execute(() -> targets.forEach(watcher -> watcher.onOrphans(orphans)));
    }
  }

  private void scheduleExpiry(Lease lease) {
    scheduler.schedule(
        Duration.ofNanos(lease.expiresAtNanos - scheduler.nanoTime()), this::expireDue);
  }

  private Lease live(long leaseId, String nodeId) {
    Lease lease = leases.get(leaseId);
    if (lease == null) {
      throw new LeaseUnavailableException(
          "node " + nodeId + " has no live lease (it expired or was revoked)", nodeId, null);
    }
    return lease;
  }

  private Instant expiresAt(RunKey key) {
    Lease lease = leases.get(key.leaseId());
    return lease == null
        ? null
        : scheduler.now().plusNanos(lease.expiresAtNanos - scheduler.nanoTime());
  }

  private void reach(String nodeId) {
    if (unreachable.contains(nodeId)) {
      throw new LeaseUnavailableException(
          "the lease service is unreachable from node " + nodeId, nodeId, null);
    }
  }

  /**
   * Ends a node's lease now, as if its TTL had run out while the node went on running (an etcd
   * leader change, a long pause in the network): the node learns it at its next renewal.
   */
  public synchronized void expire(String nodeId) {
    Long leaseId = nodeLeases.get(nodeId);
    if (leaseId != null) {
      drop(leases.get(leaseId), false);
    }
  }

  /** The node token (grant revision) of the node's live lease, if it has one. */
  public synchronized OptionalLong liveNodeToken(String nodeId) {
    expireDue();
    Long leaseId = nodeLeases.get(nodeId);
    return leaseId == null
        ? OptionalLong.empty()
        : OptionalLong.of(leases.get(leaseId).grantRevision);
  }

  /** The latest revision; every change raises it. */
  public synchronized long revision() {
    return revision;
  }
}

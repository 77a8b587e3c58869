package io.baton.lease;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * How one node proves that it owns runs. The node holds one lease on the lease service (etcd, or
 * the in-process implementation), renewed every {@code leaseTtl / 3}; its node key and every run
 * key it acquires are attached to that lease, so when the node dies all its run keys vanish at once
 * and the others learn of it ({@link #watchOrphans}).
 *
 * <p>Every acquisition returns a fencing token that is larger than any token an earlier owner of
 * the run held; the journal refuses appends under an older token. Implementations are thread-safe
 * and pass {@code LeaseManagerComplianceSuite}.
 *
 * <p>Lifecycle: {@link #start(NodeInfo)} grants the lease and announces the node; {@link
 * #releaseAll()} revokes it (graceful shutdown: every run is handed off at once); {@link #close()}
 * stops renewing without revoking, so the lease expires after its TTL as if the node had died.
 */
public interface LeaseManager extends AutoCloseable {
  /** The default time a node's lease outlives its last renewal. */
  Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(10);

  String nodeId();

  Duration leaseTtl();

  /**
   * Grants the node lease and announces the node with {@code info}. Idempotent; a start that threw
   * may be repeated.
   *
   * <p>A node id announced on a live lease this manager did not grant belongs to another process,
   * or to a predecessor killed without revoking its lease (a restarted pod keeps its id). The start
   * refuses while that lease is being renewed; it may wait, up to about one TTL, for a lease nobody
   * renews to expire (etcd does; the in-memory service refuses at once and the caller retries).
   *
   * @throws NodeIdInUseException another live process holds this node id
   * @throws LeaseUnavailableException the lease service cannot be reached
   */
  void start(NodeInfo info);

  /** Re-announces the node (for example as draining) without touching its runs. */
  void announce(NodeInfo info);

  /**
   * Acquires the run for this node in one atomic step: succeeds when no one holds it or this node
   * already does (with a token not smaller than before), else reports the owner.
   *
   * @throws LeaseUnavailableException the node has no live lease or the service cannot be reached
   */
  AcquireResult acquire(UUID runId);

  /** {@link #acquire} for many runs, batched into as few round trips as the service allows. */
  Map<UUID, AcquireResult> acquireAll(Collection<UUID> runIds);

  /**
   * The fencing token of runs this node creates and starts itself, which need no run key: the
   * revision at which the node's current lease was granted. It is larger than every token issued
   * before that, and every run key acquired later gets a larger one, so a node that adopts such a
   * run fences its creator out. Watchers learn that these runs are orphaned from {@link
   * OrphanListener#onNodeGone}. Stable while the lease lives.
   *
   * @throws LeaseUnavailableException the node holds no live lease
   */
  long nodeToken();

  /**
   * Releases a run this node holds (a normal release: no orphan is reported). Releasing a run no
   * one holds does nothing.
   *
   * @throws NotOwnerException another node holds the run
   */
  void release(UUID runId);

  /**
   * Releases many runs this node holds; returns those it did not release because another node holds
   * them.
   */
  Set<UUID> releaseAll(Collection<UUID> runIds);

  /**
   * Revokes the node lease in one call: the node key and every run key attached to it vanish, and
   * every watcher sees the runs as orphans. Used by a graceful shutdown.
   */
  void releaseAll();

  /**
   * Revokes another node's lease because that node is known to be dead (its process is gone), so
   * that its runs are orphaned now instead of when the lease's TTL runs out. Watchers see the runs
   * as orphans and the node as gone, not as a hand-off. Only the incarnation named by {@code
   * nodeToken} (from {@link LiveNodes#tokenOf}) is revoked: if the node has since been granted a
   * fresh lease, nothing happens. Safe against a wrong verdict: a live node whose lease is revoked
   * sees it LOST, is fenced out of every run it held, and grants itself a fresh lease.
   *
   * @return true when this call revoked the lease, false when that incarnation was already gone
   * @throws LeaseUnavailableException the lease service cannot be reached
   */
  boolean revokeDeadNode(String nodeId, long nodeToken);

  /**
   * Gives every run away without a drain, because this node cannot journal them (its store is
   * unreachable from here): revokes the node lease, as a death rather than a hand-off (steps may
   * have been interrupted), and grants no fresh lease until {@link #resume()}. The state turns
   * LOST. A lease that is gone already is fine.
   *
   * @throws LeaseUnavailableException the lease service cannot be reached (the lease then expires
   *     after its TTL, and the manager still grants none until {@link #resume()})
   */
  void standDown();

  /**
   * After {@link #standDown()}: grants a fresh lease, announces the node again and renews it as
   * before. Does nothing unless standing down.
   *
   * @throws LeaseUnavailableException the lease service cannot be reached (call again later)
   */
  void resume();

  /**
   * Offers runs to another node (rebalancing): releases the run keys this node holds among {@code
   * runIds} and records an offer of each to {@code toNode}, attached to this node's lease (offers
   * of a node that dies vanish with it). The caller must have stopped executing the runs. Runs
   * another node holds are left alone and returned.
   *
   * @throws LeaseUnavailableException the node has no live lease or the service cannot be reached
   */
  Set<UUID> offer(Collection<UUID> runIds, String toNode);

  /** The runs offered to {@code nodeId} and still standing, each with the node that offered it. */
  Map<UUID, String> offersTo(String nodeId);

  /** Removes offers to {@code nodeId} (the receiver has claimed the runs, or declines them). */
  void withdrawOffers(Collection<UUID> runIds, String nodeId);

  /**
   * Tells every watcher ({@link OrphanListener#onPendingRuns}, on every node, this one included)
   * that this node stored runs PENDING that it will not start itself: it is draining, at capacity,
   * or has no lease yet. Needs no lease of its own. Best effort: a hint, not a promise.
   *
   * @throws LeaseUnavailableException the lease service cannot be reached
   */
  void hintPending();

  /** Renews the node lease now (the manager also renews on its own every {@code leaseTtl / 3}). */
  void heartbeat();

  /** The run's current lease, if anyone holds it. */
  Optional<RunLease> getLease(UUID runId);

  /**
   * The nodes whose lease is alive, and the revision at which the lease service was read: a node
   * missing from the list that announces itself afterwards gets a node token above that revision
   * (see {@link LiveNodes}).
   *
   * @throws LeaseUnavailableException the lease service cannot be reached
   */
  LiveNodes liveNodes();

  /** The nodes whose lease is alive: {@link #liveNodes()} without its revision. */
  default List<NodeInfo> listNodes() {
    return liveNodes().nodes();
  }

  /**
   * When each live node's lease ends unless it is renewed, by node id, as the lease service tells
   * it now (an upper bound: etcd counts in whole seconds); a node whose lease cannot be read is
   * left out. For operators: a lease close to its end belongs to a node that stopped renewing.
   *
   * @throws LeaseUnavailableException the lease service cannot be reached
   */
  Map<String, Instant> nodeLeaseExpiries();

  /**
   * Pushes, from now on, runs whose owner's lease expired or was revoked. A run released one by one
   * is not an orphan. When "now" cannot be pinned (the service is unreachable when subscribing) or
   * events were lost, the listener is told with {@link OrphanListener#onWatchGap} and should scan.
   */
  Subscription watchOrphans(OrphanListener listener);

  ConnectionState state();

  /** Calls the listener on every change of {@link #state()}, on the manager's own thread. */
  Subscription onStateChange(Consumer<ConnectionState> listener);

  /** Stops renewing and watching, without revoking the lease. Idempotent. */
  @Override
  void close();
}

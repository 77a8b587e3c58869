package io.baton.lease.etcd;

import io.baton.lease.AcquireResult;
import io.baton.lease.ConnectionState;
import io.baton.lease.LeaseException;
import io.baton.lease.LeaseKeeper;
import io.baton.lease.LeaseManager;
import io.baton.lease.LeaseUnavailableException;
import io.baton.lease.LiveNodes;
import io.baton.lease.NodeInfo;
import io.baton.lease.NotOwnerException;
import io.baton.lease.OrphanListener;
import io.baton.lease.RunLease;
import io.baton.lease.Subscription;
import io.baton.time.Scheduler;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's {@link LeaseManager} on etcd (through jetcd).
 *
 * <p>One process per node id: {@link #start} first waits until no other lease holds the node key
 * ({@link NodeIdGuard}: a predecessor killed without revoking its lease lets it expire, a live
 * process holding the id makes the start fail with {@link io.baton.lease.NodeIdInUseException}),
 * and the node key is only ever created where it is absent.
 *
 * <p>The node holds one etcd lease, kept alive every {@code leaseTtl / 3} by the shared {@link
 * LeaseKeeper}, which also tracks CONNECTED / SUSPENDED / LOST on the injected scheduler's clock.
 * The node key {@code <prefix>nodes/<nodeId>} (node info as JSON) and every run key {@code
 * <prefix>runs/<runId>} (value: the owner's node id) are attached to it, so when the node dies or
 * revokes its lease all of them vanish in one etcd revision and every {@link #watchOrphans} watcher
 * sees the runs as orphans. A run's fencing token is its key's {@code mod_revision} when acquired.
 *
 * <p>Lifecycle NEW → STARTED ({@link #start}) → CLOSED ({@link #close}, idempotent). Every call to
 * etcd is bounded by {@code requestTimeout}. Thread-safe.
 */
public final class EtcdLeaseManager implements LeaseManager {
  private static final Logger log = LoggerFactory.getLogger(EtcdLeaseManager.class);

  private enum Lifecycle {
    NEW,
    STARTED,
    CLOSED
  }

  private final String nodeId;
  private final Duration leaseTtl;
  private final Scheduler scheduler;
  private final KeySpace keys;
  private final Client client;
  private final EtcdCalls calls;
  private final NodeSession session;
  private final LeaseKeeper keeper;
  private final RunKeyTxns runKeys;
  private final LeaseExpiry expiry;
  private final PreviousOwners previousOwners;
  private final NodeIdGuard nodeIdGuard;
  private final Set<OrphanWatcher> watchers = ConcurrentHashMap.newKeySet();
  private Lifecycle lifecycle = Lifecycle.NEW;

  /**
   * Connects lazily: nothing reaches etcd before {@link #start}.
   *
   * @param scheduler the clock for lease deadlines and the threads for renewals and watch events;
   *     it needs at least two threads so that a renewal stuck on an unreachable etcd does not hold
   *     up the deadline that suspends the node
   */
  public EtcdLeaseManager(EtcdLeaseConfig config, String nodeId, Scheduler scheduler) {
    if (nodeId == null || nodeId.isBlank() || nodeId.contains("/")) {
      throw new IllegalArgumentException("node id must be non-blank without '/', got " + nodeId);
    }
    this.nodeId = nodeId;
    this.leaseTtl = config.leaseTtl();
    this.scheduler = scheduler;
    this.keys = new KeySpace(config.prefix());
    this.client = EtcdClients.create(config);
    this.calls =
        new EtcdCalls(
            nodeId,
            config.requestTimeout(),
            new EtcdTlsFailure(config.endpoints(), config.caFile(), config.certFile()));
    this.session =
        new NodeSession(
            nodeId, keys, client.getLeaseClient(), client.getKVClient(), calls, leaseTtl);
    this.keeper = new LeaseKeeper(nodeId, leaseTtl, scheduler, session);
    this.session.observe(keeper::state);
    this.runKeys = new RunKeyTxns(client.getKVClient(), keys, nodeId, calls, config.maxTxnOps());
    this.expiry = new LeaseExpiry(client.getLeaseClient(), calls, scheduler);
    this.previousOwners = new PreviousOwners(client.getKVClient(), keys, calls, config.maxTxnOps());
    this.nodeIdGuard =
        new NodeIdGuard(
            nodeId, keys, client.getKVClient(), client.getLeaseClient(), calls, scheduler);
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
    if (!nodeId.equals(info.nodeId())) {
      throw new IllegalArgumentException(
          "node " + nodeId + " cannot announce itself as " + info.nodeId());
    }
    synchronized (this) {
      if (lifecycle == Lifecycle.CLOSED) {
        throw new IllegalStateException("node " + nodeId + ": the lease manager is closed");
      }
      if (lifecycle == Lifecycle.STARTED) {
        return;
      }
    }
    // Outside the lock: it may wait about one TTL, and close() must not wait for it.
    nodeIdGuard.awaitFree(this::isClosed);
    synchronized (this) {
      if (lifecycle == Lifecycle.CLOSED) {
        throw new IllegalStateException("node " + nodeId + ": the lease manager is closed");
      }
      if (lifecycle == Lifecycle.STARTED) {
        return;
      }
      session.info(info);
      keeper.start();
      lifecycle = Lifecycle.STARTED;
    }
    log.info("node {} holds etcd lease {} under {}", nodeId, session.leaseId(), keys.prefix());
  }

  @Override
  public void announce(NodeInfo info) {
    requireStarted();
    liveLease();
    session.announce(info);
  }

  @Override
  public AcquireResult acquire(UUID runId) {
    return acquireAll(List.of(runId)).get(runId);
  }

  @Override
  public long nodeToken() {
    requireStarted();
    liveLease();
    return session.nodeToken();
  }

  @Override
  public Map<UUID, AcquireResult> acquireAll(Collection<UUID> runIds) {
    requireStarted();
    long lease = liveLease();
    Map<UUID, RunKeyTxns.Claim> claims = guarded(() -> runKeys.acquire(runIds, lease));
    LeaseExpiry.Lookup expiries = expiry.lookup();
    Map<UUID, AcquireResult> results = new LinkedHashMap<>();
    claims.forEach(
        (runId, claim) -> {
          if (claim instanceof RunKeyTxns.Claim.Held held) {
            results.put(
                runId,
                new AcquireResult.OwnedBy(runId, held.owner(), expiries.expiresAt(held.leaseId())));
          } else {
            results.put(
                runId, new AcquireResult.Acquired(runId, ((RunKeyTxns.Claim.Won) claim).token()));
          }
        });
    return results;
  }

  @Override
  public void release(UUID runId) {
    String owner = releaseRuns(List.of(runId)).get(runId);
    if (owner != null) {
      throw new NotOwnerException(runId, nodeId, owner);
    }
  }

  @Override
  public Set<UUID> releaseAll(Collection<UUID> runIds) {
    return Set.copyOf(releaseRuns(runIds).keySet());
  }

  @Override
  public void releaseAll() {
    requireStarted();
    session.drainAndRevoke();
    keeper.revoked();
    log.info("node {} revoked its lease: its runs are handed off", nodeId);
  }

  @Override
  public boolean revokeDeadNode(String nodeId, long nodeToken) {
    requireOpen();
    GetResponse response =
        call(() -> client.getKVClient().get(keys.nodeKey(nodeId)), "reading node " + nodeId);
    if (response.getKvs().isEmpty()) {
      return false;
    }
    KeyValue key = response.getKvs().get(0);
    // The node token is the revision of the put that created the node key on its lease: a fresh
    // incarnation creates it anew, so a matching create revision means the same lease still stands.
    if (key.getCreateRevision() != nodeToken || key.getLease() == NodeSession.NO_LEASE) {
      return false;
    }
    try {
      call(() -> client.getLeaseClient().revoke(key.getLease()), "revoking node " + nodeId);
    } catch (LeaseUnavailableException failure) {
      if (EtcdCalls.isLeaseNotFound(failure.getCause())) {
        return false;
      }
      throw failure;
    }
    return true;
  }

  @Override
  public Set<UUID> offer(Collection<UUID> runIds, String toNode) {
    requireStarted();
    long lease = liveLease();
    Set<UUID> heldByOthers = releaseAll(runIds);
    List<UUID> offered = runIds.stream().filter(run -> !heldByOthers.contains(run)).toList();
    guarded(
        () -> {
          runKeys.putOffers(offered, toNode, lease);
          return null;
        });
    return heldByOthers;
  }

  @Override
  public Map<UUID, String> offersTo(String toNode) {
    requireOpen();
    GetResponse response = getPrefix(keys.offersPrefix(toNode), "reading offers to " + toNode);
    Map<UUID, String> offers = new LinkedHashMap<>();
    for (KeyValue key : response.getKvs()) {
      keys.offeredRun(toNode, key.getKey())
          .ifPresent(run -> offers.put(run, KeySpace.text(key.getValue())));
    }
    return offers;
  }

  @Override
  public void withdrawOffers(Collection<UUID> runIds, String toNode) {
    requireOpen();
    runKeys.deleteOffers(runIds, toNode);
  }

  @Override
  public void standDown() {
    requireStarted();
    try {
      session.revokeCurrent();
    } finally {
      keeper.standDown();
    }
    log.warn("node {} stood down: it revoked its lease, its runs go to the other nodes", nodeId);
  }

  @Override
  public void resume() {
    requireStarted();
    keeper.resume();
  }

  @Override
  public void hintPending() {
    requireOpen();
    call(
        () -> client.getKVClient().put(keys.pendingKey(), KeySpace.bytes(nodeId)),
        "hinting pending runs");
  }

  @Override
  public void heartbeat() {
    requireStarted();
    keeper.heartbeat();
  }

  @Override
  public Optional<RunLease> getLease(UUID runId) {
    requireOpen();
    GetResponse response =
        call(() -> client.getKVClient().get(keys.runKey(runId)), "reading run " + runId);
    if (response.getKvs().isEmpty()) {
      return Optional.empty();
    }
    KeyValue key = response.getKvs().get(0);
    return Optional.of(
        new RunLease(
            runId,
            KeySpace.text(key.getValue()),
            key.getModRevision(),
            key.getLease() == session.leaseId()
                ? keeper.expiresAt()
                : expiry.lookup().expiresAt(key.getLease())));
  }

  @Override
  public LiveNodes liveNodes() {
    requireOpen();
    return nodeSnapshot();
  }

  @Override
  public Map<String, Instant> nodeLeaseExpiries() {
    requireOpen();
    GetResponse response = getPrefix(keys.nodesPrefix(), "listing nodes' leases");
    LeaseExpiry.Lookup expiries = expiry.lookup();
    Map<String, Instant> result = new LinkedHashMap<>();
    for (KeyValue key : response.getKvs()) {
      String id = keys.nodeId(key.getKey()).orElseThrow();
      Instant at =
          key.getLease() == session.leaseId()
              ? keeper.expiresAt()
              : expiries.expiresAt(key.getLease());
      if (at != null) {
        result.put(id, at);
      }
    }
    return result;
  }

  @Override
  public Subscription watchOrphans(OrphanListener listener) {
    requireOpen();
    OrphanWatcher watcher =
        new OrphanWatcher(
            client.getWatchClient(),
            keys,
            this::nodeSnapshot,
            previousOwners,
            listener,
            scheduler,
            nodeId,
            startOfWatch());
    watchers.add(watcher);
    watcher.start();
    return () -> {
      watchers.remove(watcher);
      watcher.close();
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
    synchronized (this) {
      if (lifecycle == Lifecycle.CLOSED) {
        return;
      }
      lifecycle = Lifecycle.CLOSED;
    }
    keeper.close();
    watchers.forEach(OrphanWatcher::close);
    watchers.clear();
    client.close();
  }

  private Map<UUID, String> releaseRuns(Collection<UUID> runIds) {
    requireStarted();
    return guarded(() -> session.withNodeKeyPut(nodeKeyPut -> runKeys.release(runIds, nodeKeyPut)));
  }

  /** The live nodes, read from their keys, and the revision they were read at. */
  /** Every key under {@code prefix}, in one read. */
  private GetResponse getPrefix(ByteSequence prefix, String description) {
    return call(
        () -> client.getKVClient().get(prefix, GetOption.builder().isPrefix(true).build()),
        description);
  }

  private LiveNodes nodeSnapshot() {
    GetResponse response = getPrefix(keys.nodesPrefix(), "listing nodes");
    List<NodeInfo> nodes = new ArrayList<>();
    Map<String, Long> tokens = new LinkedHashMap<>();
    for (KeyValue key : response.getKvs()) {
      String id = keys.nodeId(key.getKey()).orElseThrow();
      try {
        nodes.add(NodeInfoCodec.decode(id, key.getValue()));
        tokens.put(id, key.getCreateRevision());
      } catch (IllegalArgumentException unreadable) {
        log.warn("node {}: skipping node key of {}: {}", nodeId, id, unreadable.getMessage());
      }
    }
    return new LiveNodes(nodes, response.getHeader().getRevision(), tokens);
  }

  /** Where an orphan watch starts: now, or (etcd unreachable) wherever etcd is when it connects. */
  private LiveNodes startOfWatch() {
    try {
      return nodeSnapshot();
    } catch (LeaseException unreachable) {
      log.warn("node {}: {}", nodeId, unreachable.getMessage());
      return null;
    }
  }

  private <T> T call(Supplier<CompletableFuture<T>> request, String description) {
    return calls.await(request.get(), description);
  }

  /**
   * Runs a transaction on the node lease. When etcd says the lease is gone, the keeper learns it
   * now rather than at its next renewal: one heartbeat finds the lease gone (LOST), a second one
   * grants a fresh lease.
   */
  private <T> T guarded(Supplier<T> transaction) {
    try {
      return transaction.get();
    } catch (LeaseUnavailableException failure) {
      if (EtcdCalls.isLeaseNotFound(failure.getCause())) {
        scheduler.execute(
            () -> {
              if (!keeper.heartbeat()) {
                keeper.heartbeat();
              }
            });
      }
      throw failure;
    }
  }

  private long liveLease() {
    ConnectionState state = keeper.state();
    if (state != ConnectionState.CONNECTED) {
      throw new LeaseUnavailableException(
          "node " + nodeId + " holds no live lease (" + state + ")", nodeId, null);
    }
    return session.leaseId();
  }

  private synchronized void requireStarted() {
    if (lifecycle != Lifecycle.STARTED) {
      throw new IllegalStateException(
          "node " + nodeId + ": the lease manager is " + lifecycle + ", not STARTED");
    }
  }

  private synchronized boolean isClosed() {
    return lifecycle == Lifecycle.CLOSED;
  }

  private synchronized void requireOpen() {
    if (lifecycle == Lifecycle.CLOSED) {
      throw new IllegalStateException("node " + nodeId + ": the lease manager is closed");
    }
  }
}

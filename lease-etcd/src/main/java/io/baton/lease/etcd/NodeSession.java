package io.baton.lease.etcd;

import io.baton.lease.ConnectionState;
import io.baton.lease.LeaseKeeper;
import io.baton.lease.LeaseUnavailableException;
import io.baton.lease.NodeIdInUseException;
import io.baton.lease.NodeInfo;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.lease.LeaseGrantResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's lease on etcd and its node key: what {@link LeaseKeeper} drives. {@link #grant()}
 * grants a lease, revokes the lease it replaces and puts the node key on the new one, only if no
 * other process has put it meanwhile (else {@link NodeIdInUseException}: the keeper stays LOST and
 * tries again, so a node whose id was taken while it was cut off never runs beside the taker).
 * Revoking the old lease makes the runs a LOST node has given up vanish at once, with the node key,
 * so that every watcher sees them as this node's orphans now instead of one TTL later (etcd
 * restores leases with a full TTL when it restarts). {@link #renew()} is one keep-alive.
 * Thread-safe: grants are serialized, and releases read the node info under a lock that
 * announcements take exclusively, so a release never writes back stale info.
 */
final class NodeSession implements LeaseKeeper.Session {
  static final long NO_LEASE = 0;
  private static final Logger log = LoggerFactory.getLogger(NodeSession.class);

  private final String nodeId;
  private final KeySpace keys;
  private final Lease leases;
  private final KV kv;
  private final EtcdCalls calls;
  private final long ttlSeconds;
  private final Duration renewTimeout;
  private final ReadWriteLock nodeKeyLock = new ReentrantReadWriteLock();
  private Supplier<ConnectionState> keeperState = () -> ConnectionState.LOST;
  private volatile long leaseId = NO_LEASE;
  private volatile long nodeToken;
  private volatile NodeInfo info;

  NodeSession(
      String nodeId, KeySpace keys, Lease leases, KV kv, EtcdCalls calls, Duration leaseTtl) {
    this.nodeId = nodeId;
    this.keys = keys;
    this.leases = leases;
    this.kv = kv;
    this.calls = calls;
    this.ttlSeconds = leaseTtl.toSeconds();
    Duration third = leaseTtl.dividedBy(3);
    this.renewTimeout =
        calls.requestTimeout().compareTo(third) < 0 ? calls.requestTimeout() : third;
  }

  /** Lets a grant that lost a race with another grant see that the keeper is connected again. */
  void observe(Supplier<ConnectionState> keeperState) {
    this.keeperState = keeperState;
  }

  long leaseId() {
    return leaseId;
  }

  void info(NodeInfo info) {
    this.info = info;
  }

  /** Puts the node key with {@code info} on the current lease; later re-puts carry it. */
  void announce(NodeInfo info) {
    nodeKeyLock.writeLock().lock();
    try {
      calls.await(
          kv.put(keys.nodeKey(nodeId), NodeInfoCodec.encode(info), onLease(leaseId)),
          "announcing the node");
      this.info = info;
    } finally {
      nodeKeyLock.writeLock().unlock();
    }
  }

  /**
   * Runs a transaction that also puts the node key, unchanged, on the current lease; no
   * announcement can slip between reading the node info and the transaction.
   */
  <T> T withNodeKeyPut(Function<Op, T> transaction) {
    nodeKeyLock.readLock().lock();
    try {
      Op put = Op.put(keys.nodeKey(nodeId), NodeInfoCodec.encode(info), onLease(leaseId));
      return transaction.apply(put);
    } finally {
      nodeKeyLock.readLock().unlock();
    }
  }

  /**
   * Announces the node draining, then revokes its lease: the node key and every run key vanish in
   * one revision, which watchers read as a hand-off. A lease that is gone already is fine.
   */
  void drainAndRevoke() {
    nodeKeyLock.writeLock().lock();
    try {
      NodeInfo draining = info.asDraining();
      try {
        calls.await(
            kv.put(keys.nodeKey(nodeId), NodeInfoCodec.encode(draining), onLease(leaseId)),
            "announcing the node as draining");
      } catch (LeaseUnavailableException failure) {
        if (!EtcdCalls.isLeaseNotFound(failure.getCause())) {
          throw failure;
        }
      }
      info = draining;
      revoke(leaseId);
    } finally {
      nodeKeyLock.writeLock().unlock();
    }
  }

  /**
   * Revokes the current lease without announcing a drain: watchers see the node's runs as orphans
   * of a death, not a hand-off. A lease that is gone already is fine.
   */
  void revokeCurrent() {
    nodeKeyLock.writeLock().lock();
    try {
      revoke(leaseId);
    } finally {
      nodeKeyLock.writeLock().unlock();
    }
  }

  @Override
  public synchronized void grant() {
    if (leaseId != NO_LEASE && keeperState.get() == ConnectionState.CONNECTED) {
      return; // a concurrent heartbeat granted a fresh lease a moment ago
    }
    long replaced = leaseId;
    LeaseGrantResponse granted = calls.await(leases.grant(ttlSeconds), "granting the node lease");
    if (granted.getTTL() > ttlSeconds) {
      log.warn(
          "node {}: etcd raised the lease TTL from {}s to its minimum {}s; other nodes wait longer"
              + " to adopt this node's runs",
          nodeId,
          ttlSeconds,
          granted.getTTL());
    }
    nodeKeyLock.writeLock().lock();
    try {
      if (replaced != NO_LEASE) {
        revoke(replaced);
      }
      nodeToken = announceIfFree(granted.getID());
    } catch (RuntimeException failure) {
      revokeQuietly(granted.getID());
      throw failure;
    } finally {
      nodeKeyLock.writeLock().unlock();
    }
    leaseId = granted.getID();
  }

  /**
   * Puts the node key on {@code lease} unless the key exists: this session's own key went with the
   * lease it replaced, so a key found here was put by another process under the same node id (a
   * first start checks that with {@link NodeIdGuard} before it grants). Returns the put's revision,
   * the node token.
   *
   * @throws NodeIdInUseException another process holds the node id
   */
  private long announceIfFree(long lease) {
    ByteSequence key = keys.nodeKey(nodeId);
    TxnResponse announced =
        calls.await(
            kv.txn()
                .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                .Then(Op.put(key, NodeInfoCodec.encode(info), onLease(lease)))
                .Else(Op.get(key, GetOption.DEFAULT))
                .commit(),
            "announcing the node");
    if (!announced.isSucceeded()) {
      List<KeyValue> holder = announced.getGetResponses().get(0).getKvs();
      throw new NodeIdInUseException(
          nodeId, holder.isEmpty() ? "" : NodeInfoCodec.address(nodeId, holder.get(0).getValue()));
    }
    return announced.getHeader().getRevision();
  }

  /**
   * The revision of the put that announced the node on its current lease: the token of the runs the
   * node starts itself (see {@code LeaseManager#nodeToken}).
   */
  long nodeToken() {
    return nodeToken;
  }

  @Override
  public boolean renew() {
    long current = leaseId;
    try {
      calls.await(leases.keepAliveOnce(current), "renewing the node lease", renewTimeout);
      return true;
    } catch (LeaseUnavailableException failure) {
      if (EtcdCalls.isLeaseNotFound(failure.getCause())) {
        return false;
      }
      throw failure;
    }
  }

  /** Revokes a lease; one that etcd no longer has is revoked already. */
  private void revoke(long lease) {
    try {
      calls.await(leases.revoke(lease), "revoking a node lease");
    } catch (LeaseUnavailableException failure) {
      if (!EtcdCalls.isLeaseNotFound(failure.getCause())) {
        throw failure;
      }
    }
  }

  private void revokeQuietly(long lease) {
    try {
      calls.await(leases.revoke(lease), "revoking a replaced lease");
    } catch (RuntimeException failure) {
      log.info(
          "node {}: could not revoke replaced lease {}: {}", nodeId, lease, failure.toString());
    }
  }

  private static PutOption onLease(long leaseId) {
    return PutOption.builder().withLeaseId(leaseId).build();
  }
}

package io.baton.lease.etcd;

import io.baton.lease.LeaseUnavailableException;
import io.baton.lease.NodeIdInUseException;
import io.baton.time.Durations;
import io.baton.time.Scheduler;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.options.LeaseOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, before a node first announces itself, whether its node id is free. A node key that
 * exists then is on a lease this manager did not grant: another process holds the id, or a
 * predecessor was killed without revoking its lease (a restarted pod keeps its id, and the old key
 * lives until that lease's TTL runs out). The guard reads the key and the lease's remaining TTL a
 * few times a second until the evidence decides:
 *
 * <ul>
 *   <li>the key vanishes: the predecessor's lease expired, the id is free;
 *   <li>the lease is renewed ({@link RenewalEvidence}), or the key is written again: a live process
 *       holds the id, {@link NodeIdInUseException} with the address it announced;
 *   <li>neither by the time the lease must have ended unless renewed, plus {@link #EXPIRY_MARGIN}
 *       for etcd to delete an expired lease's keys: {@link LeaseUnavailableException}. The node
 *       never starts on a guess, and the start may be retried (the node process retries it).
 * </ul>
 *
 * A key on no lease never vanishes by itself and is treated as in use. A new etcd leader extends
 * every lease, which may read as a renewal: that start is refused, a later one succeeds. Each call
 * of {@link #awaitFree} is confined to its caller's thread.
 */
final class NodeIdGuard {
  static final Duration POLL = Duration.ofMillis(250);
  static final Duration EXPIRY_MARGIN = Duration.ofSeconds(2);
  private static final Logger log = LoggerFactory.getLogger(NodeIdGuard.class);

  private final String nodeId;
  private final KeySpace keys;
  private final KV kv;
  private final Lease leases;
  private final EtcdCalls calls;
  private final Scheduler scheduler;

  NodeIdGuard(
      String nodeId, KeySpace keys, KV kv, Lease leases, EtcdCalls calls, Scheduler scheduler) {
    this.nodeId = nodeId;
    this.keys = keys;
    this.kv = kv;
    this.leases = leases;
    this.calls = calls;
    this.scheduler = scheduler;
  }

  /**
   * Returns once no key holds the node id; may take about one lease TTL.
   *
   * @param cancelled checked before every reading: the manager was closed meanwhile
   * @throws NodeIdInUseException a live process holds the node id
   * @throws LeaseUnavailableException etcd cannot be reached, or the evidence did not decide
   */
  void awaitFree(BooleanSupplier cancelled) {
    RenewalEvidence evidence = new RenewalEvidence();
    KeyValue first = null;
    while (true) {
      if (cancelled.getAsBoolean()) {
        throw new IllegalStateException("node " + nodeId + ": the lease manager was closed");
      }
      List<KeyValue> found =
          calls.await(kv.get(keys.nodeKey(nodeId)), "reading the node key").getKvs();
      if (found.isEmpty()) {
        return;
      }
      KeyValue held = found.get(0);
      if (held.getLease() == NodeSession.NO_LEASE) {
        throw inUse(held);
      }
      if (first == null) {
        first = held;
        log.info(
            "node {}: its node id is held on lease {} by {}; waiting to see whether that lease is"
                + " renewed or expires",
            nodeId,
            Long.toHexString(held.getLease()),
            addressOf(held).isEmpty() ? "a process without address" : addressOf(held));
      } else if (held.getModRevision() != first.getModRevision()) {
        throw inUse(held); // written again: the holder is alive
      }
      long sentAt = scheduler.nanoTime();
      long remaining = remainingSeconds(held.getLease());
      long receivedAt = scheduler.nanoTime();
      if (evidence.renewed(sentAt, receivedAt, remaining)) {
        throw inUse(held);
      }
      if (receivedAt - (evidence.endsBefore() + EXPIRY_MARGIN.toNanos()) > 0) {
        throw undecided(held);
      }
      pause(POLL);
    }
  }

  private long remainingSeconds(long lease) {
    return calls
        .await(leases.timeToLive(lease, LeaseOption.DEFAULT), "reading the node key's lease")
        .getTTL();
  }

  private NodeIdInUseException inUse(KeyValue held) {
    return new NodeIdInUseException(nodeId, addressOf(held));
  }

  private LeaseUnavailableException undecided(KeyValue held) {
    return new LeaseUnavailableException(
        "node "
            + nodeId
            + ": its node id is still held on lease "
            + Long.toHexString(held.getLease())
            + ", which was neither seen renewed nor expired within its TTL and "
            + Durations.format(EXPIRY_MARGIN),
        nodeId,
        null);
  }

  private String addressOf(KeyValue held) {
    return NodeInfoCodec.address(nodeId, held.getValue());
  }

  private void pause(Duration delay) {
    CompletableFuture<Void> elapsed = new CompletableFuture<>();
    scheduler.schedule(delay, () -> elapsed.complete(null));
    try {
      elapsed.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LeaseUnavailableException(
          "node " + nodeId + ": interrupted while waiting for its node id", nodeId, e);
    } catch (ExecutionException impossible) {
      throw new IllegalStateException(impossible);
    }
  }
}

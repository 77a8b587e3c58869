package io.baton.lease.etcd;

import io.baton.lease.LeaseManager;
import io.baton.lease.NodeInfo;
import io.baton.time.SystemScheduler;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Lease managers of several nodes on an {@link EtcdTestCluster}, under a key prefix of their own so
 * that tests sharing one etcd never see each other's keys, plus an admin client to look at and
 * tamper with etcd directly. {@link #close()} closes every manager it started (without revoking:
 * their leases expire on their own) and the shared scheduler.
 */
public final class EtcdNodes implements AutoCloseable {
  /** Short enough that an unreachable etcd fails calls quickly in fault tests. */
  public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);

  private final EtcdTestCluster etcd;
  private final Duration leaseTtl;
  private final String prefix = "/baton/test-" + UUID.randomUUID() + "/";
  private final SystemScheduler scheduler = new SystemScheduler("lease-test", 4);
  private final List<LeaseManager> managers = new CopyOnWriteArrayList<>();
  private Client admin;

  public EtcdNodes(EtcdTestCluster etcd, Duration leaseTtl) {
    this.etcd = etcd;
    this.leaseTtl = leaseTtl;
  }

  public static NodeInfo info(String nodeId) {
    return new NodeInfo(nodeId, "127.0.0.1:8080", Instant.now(), "test", false);
  }

  public String prefix() {
    return prefix;
  }

  public SystemScheduler scheduler() {
    return scheduler;
  }

  /** The configuration every manager gets: all members, this prefix, the TTL. */
  public EtcdLeaseConfig.Builder config() {
    return EtcdLeaseConfig.builder()
        .endpoints(etcd.endpoints())
        .prefix(prefix)
        .leaseTtl(leaseTtl)
        .connectTimeout(Duration.ofSeconds(1))
        .requestTimeout(REQUEST_TIMEOUT);
  }

  /** A started manager for {@code nodeId}. */
  public EtcdLeaseManager start(String nodeId) {
    return start(nodeId, config -> config);
  }

  /** A started manager for {@code nodeId} whose configuration the test adjusts. */
  public EtcdLeaseManager start(String nodeId, UnaryOperator<EtcdLeaseConfig.Builder> adjust) {
    EtcdLeaseManager manager = create(nodeId, adjust);
    manager.start(info(nodeId));
    return manager;
  }

  /** A manager that is not started yet; closed with the others. */
  public EtcdLeaseManager create(String nodeId, UnaryOperator<EtcdLeaseConfig.Builder> adjust) {
    EtcdLeaseManager manager =
        new EtcdLeaseManager(adjust.apply(config()).build(), nodeId, scheduler);
    managers.add(manager);
    return manager;
  }

  /** A plain jetcd client on every member, for looking at etcd behind the managers' backs. */
  public synchronized Client admin() {
    if (admin == null) {
      admin = Client.builder().endpoints(etcd.endpoints().toArray(URI[]::new)).build();
    }
    return admin;
  }

  /** A full scan: the runs whose keys exist now. */
  public Set<UUID> runKeys() {
    return keys("runs/").stream()
        .map(kv -> UUID.fromString(text(kv.getKey()).substring((prefix + "runs/").length())))
        .collect(Collectors.toSet());
  }

  /** Whether the node's key exists (its lease lives). */
  public boolean isListed(String nodeId) {
    return keys("nodes/").stream().anyMatch(kv -> text(kv.getKey()).endsWith("/" + nodeId));
  }

  /** The lease the node's key is attached to. */
  public long leaseOf(String nodeId) {
    return keys("nodes/").stream()
        .filter(kv -> text(kv.getKey()).endsWith("/" + nodeId))
        .findFirst()
        .orElseThrow()
        .getLease();
  }

  /** Revokes the node's lease behind its manager's back, as an operator with etcdctl would. */
  public void revokeLeaseOf(String nodeId) {
    get(admin().getLeaseClient().revoke(leaseOf(nodeId)));
  }

  /** The latest revision of the etcd cluster. */
  public long revision() {
    return get(admin().getKVClient().get(bytes(prefix))).getHeader().getRevision();
  }

  /** Compacts etcd's history up to {@code revision}: older revisions can no longer be watched. */
  public void compact(long revision) {
    get(admin().getKVClient().compact(revision));
  }

  public List<KeyValue> keys(String under) {
    return get(admin()
            .getKVClient()
            .get(bytes(prefix + under), GetOption.builder().isPrefix(true).build()))
        .getKvs();
  }

  @Override
  public void close() {
    List<LeaseManager> all = new ArrayList<>(managers);
    managers.clear();
    all.forEach(LeaseManager::close);
    synchronized (this) {
      if (admin != null) {
        admin.close();
        admin = null;
      }
    }
    scheduler.close();
  }

  static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }

  static String text(ByteSequence bytes) {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  static <T> T get(CompletableFuture<T> future) {
    try {
      return future.get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("etcd admin call failed", e);
    }
  }
}

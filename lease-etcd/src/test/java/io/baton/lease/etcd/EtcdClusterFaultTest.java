package io.baton.lease.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.baton.lease.AcquireResult;
import io.baton.lease.ConnectionState;
import io.baton.lease.Subscription;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A three-member etcd cluster loses a member while nodes hold leases and watch for orphans. */
class EtcdClusterFaultTest {
  private static final Duration TTL = Duration.ofSeconds(3);
  private static final Duration PATIENCE = Duration.ofSeconds(30);
  private static EtcdTestCluster etcd;
  private EtcdNodes nodes;

  @BeforeAll
  static void startEtcd() {
    etcd = EtcdTestCluster.start(3);
  }

  @AfterAll
  static void stopEtcd() {
    etcd.close();
  }

  @BeforeEach
  void openNodes() {
    etcd.startAll(); // a test that failed half-way may have left a member down
    nodes = new EtcdNodes(etcd, TTL);
  }

  @AfterEach
  void closeNodes() {
    nodes.close();
  }

  private static List<UUID> runs(int count) {
    List<UUID> runs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      runs.add(UUID.randomUUID());
    }
    return runs;
  }

  private static long token(AcquireResult result) {
    return ((AcquireResult.Acquired) result).token();
  }

  @Test
  void the_leader_killed_while_leases_are_held_costs_no_lease() {
    EtcdLeaseManager a = nodes.start("node-a");
    EtcdLeaseManager b = nodes.start("node-b");
    List<ConnectionState> statesOfA = new CopyOnWriteArrayList<>();
    List<ConnectionState> statesOfB = new CopyOnWriteArrayList<>();
    a.onStateChange(statesOfA::add);
    b.onStateChange(statesOfB::add);
    List<UUID> runs = runs(50);
    Map<UUID, AcquireResult> held = a.acquireAll(runs);
    long leaseOfA = nodes.leaseOf("node-a");

    int leader = etcd.leader();
    etcd.kill(leader);
    try {
      await("two TTLs without a lost lease")
          .during(TTL.multipliedBy(2))
          .atMost(TTL.multipliedBy(2).plus(PATIENCE))
          .until(() -> a.state() != ConnectionState.LOST && b.state() != ConnectionState.LOST);

      System.out.printf(
          "leader m%d killed: states of node-a %s, node-b %s%n", leader, statesOfA, statesOfB);
      assertThat(statesOfA).doesNotContain(ConnectionState.LOST);
      assertThat(statesOfB).doesNotContain(ConnectionState.LOST);
      await("node-a connected")
          .atMost(PATIENCE)
          .until(() -> a.state() == ConnectionState.CONNECTED);
      assertThat(nodes.leaseOf("node-a")).isEqualTo(leaseOfA);
      for (UUID run : runs) {
        assertThat(b.getLease(run).orElseThrow().token()).isEqualTo(token(held.get(run)));
      }
      assertThat(a.acquire(UUID.randomUUID()).isAcquired()).isTrue();
    } finally {
      etcd.restart(leader);
    }
  }

  @Test
  void an_orphan_watch_whose_member_dies_resumes_and_misses_no_deletion() {
    List<URI> others = List.of(etcd.endpoint(1), etcd.endpoint(2));
    EtcdLeaseManager a = nodes.start("node-a", config -> config.endpoints(others));
    EtcdLeaseManager b = nodes.start("node-b", config -> config.endpoints(others));
    EtcdLeaseManager watching =
        nodes.create("watcher", config -> config.endpoints(List.of(etcd.endpoint(0))));
    OrphanRecorder watcher = new OrphanRecorder();
    try (Subscription ignored = watching.watchOrphans(watcher)) {
      List<UUID> runsOfA = runs(60);
      List<UUID> runsOfB = runs(40);
      a.acquireAll(runsOfA);
      b.acquireAll(runsOfB);
      UUID early = UUID.randomUUID();
      EtcdLeaseManager first = nodes.start("first", config -> config.endpoints(others));
      first.acquire(early);
      first.releaseAll();
      await("the watch is live").atMost(PATIENCE).until(() -> watcher.count(early) == 1);

      etcd.kill(0);
      etcd.leader(); // m0 may have led: writes wait for the others to elect one
      List<UUID> released = runsOfA.subList(0, 20);
      a.releaseAll(released);
      a.releaseAll();
      nodes.revokeLeaseOf("node-b");
      assertThat(nodes.runKeys()).isEmpty();
      etcd.restart(0);

      Set<UUID> expected = new HashSet<>(runsOfA);
      expected.addAll(runsOfB);
      expected.removeAll(released);
      expected.add(early);
      await("every deletion reported")
          .atMost(PATIENCE)
          .until(() -> watcher.runIds().containsAll(expected));
      UUID late = UUID.randomUUID();
      EtcdLeaseManager last = nodes.start("last", config -> config.endpoints(others));
      last.acquire(late);
      last.releaseAll();
      await("a later orphan").atMost(PATIENCE).until(() -> watcher.count(late) == 1);

      expected.add(late);
      assertThat(watcher.runIds()).isEqualTo(expected);
      assertThat(watcher.duplicates()).isEmpty();
      assertThat(watcher.gaps()).isEmpty();
    }
  }
}

package io.baton.lease.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.baton.lease.AcquireResult;
import io.baton.lease.ConnectionState;
import io.baton.lease.LeaseUnavailableException;
import io.baton.lease.Orphan;
import io.baton.lease.Subscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The whole etcd goes away (frozen or killed) and comes back; what the nodes make of it. */
class EtcdOutageTest {
  private static final Duration TTL = Duration.ofSeconds(3);
  private static final Duration RECOVERY = Duration.ofSeconds(30);
  private static EtcdTestCluster etcd;
  private EtcdNodes nodes;

  @BeforeAll
  static void startEtcd() {
    etcd = EtcdTestCluster.start(1);
  }

  @AfterAll
  static void stopEtcd() {
    etcd.close();
  }

  @BeforeEach
  void openNodes() {
    etcd.startAll(); // a test that failed half-way may have left etcd down
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

  @Test
  void etcd_frozen_for_less_than_the_ttl_suspends_the_node_then_it_reconnects_with_nothing_lost() {
    EtcdLeaseManager a = nodes.start("node-a");
    List<ConnectionState> states = new CopyOnWriteArrayList<>();
    a.onStateChange(states::add);
    List<UUID> runs = runs(20);
    Map<UUID, AcquireResult> acquired = a.acquireAll(runs);

    etcd.pause(0);
    try {
      await("node-a suspended")
          .atMost(TTL)
          .pollInterval(Duration.ofMillis(5))
          .until(() -> a.state() == ConnectionState.SUSPENDED);
      assertThatThrownBy(() -> a.acquire(UUID.randomUUID()))
          .as("a suspended node takes no new work")
          .isInstanceOf(LeaseUnavailableException.class);
    } finally {
      etcd.resume(0);
    }

    // The listener hears of a change just after state() shows it: wait for what is asserted.
    await("node-a connected")
        .atMost(RECOVERY)
        .until(() -> states.contains(ConnectionState.CONNECTED));
    assertThat(states).containsExactly(ConnectionState.SUSPENDED, ConnectionState.CONNECTED);
    for (UUID run : runs) {
      assertThat(a.getLease(run).orElseThrow().token())
          .isEqualTo(((AcquireResult.Acquired) acquired.get(run)).token());
    }
  }

  @Test
  void etcd_down_for_longer_than_the_ttl_loses_the_lease_drops_the_runs_and_grants_a_fresh_one() {
    EtcdLeaseManager a = nodes.start("node-a");
    EtcdLeaseManager b = nodes.start("node-b");
    List<ConnectionState> states = new CopyOnWriteArrayList<>();
    a.onStateChange(states::add);
    OrphanRecorder watcher = new OrphanRecorder();
    try (Subscription ignored = b.watchOrphans(watcher)) {
      List<UUID> runs = runs(20);
      Map<UUID, AcquireResult> acquired = a.acquireAll(runs);
      long oldLease = nodes.leaseOf("node-a");

      etcd.stopAll();
      await("node-a lost")
          .atMost(TTL.multipliedBy(3))
          .until(() -> a.state() == ConnectionState.LOST);
      etcd.startAll();

      await("node-a connected")
          .atMost(RECOVERY)
          .until(() -> states.contains(ConnectionState.CONNECTED));
      assertThat(states)
          .containsExactly(
              ConnectionState.SUSPENDED, ConnectionState.LOST, ConnectionState.CONNECTED);
      assertThat(nodes.leaseOf("node-a")).isNotEqualTo(oldLease);
      assertThat(nodes.runKeys()).as("the runs went with the old lease").isEmpty();
      await("the runs are orphans")
          .atMost(RECOVERY)
          .until(() -> watcher.runIds().containsAll(runs));
      assertThat(watcher.orphans())
          .filteredOn(o -> runs.contains(o.runId()))
          .extracting(Orphan::previousOwner, Orphan::handoff)
          .containsOnly(Tuple.tuple("node-a", false));
      AcquireResult again = a.acquire(runs.get(0));
      assertThat(((AcquireResult.Acquired) again).token())
          .isGreaterThan(((AcquireResult.Acquired) acquired.get(runs.get(0))).token());
    }
  }
}

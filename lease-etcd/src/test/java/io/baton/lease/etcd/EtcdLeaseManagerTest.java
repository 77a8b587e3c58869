package io.baton.lease.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.baton.lease.AcquireResult;
import io.baton.lease.ConnectionState;
import io.baton.lease.LeaseUnavailableException;
import io.baton.lease.NodeInfo;
import io.baton.lease.Orphan;
import io.baton.lease.RunLease;
import io.baton.lease.Subscription;
import io.etcd.jetcd.KeyValue;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
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

/** What the etcd lease manager promises beyond the shared suite, on one real etcd member. */
class EtcdLeaseManagerTest {
  private static final Duration TTL = Duration.ofSeconds(2);
  private static final Duration PATIENCE = Duration.ofSeconds(20);
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
    assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
    return ((AcquireResult.Acquired) result).token();
  }

  /** Revokes a throwaway node's lease and waits for its orphan: every earlier event was seen. */
  private void awaitQuiet(OrphanRecorder watcher) {
    EtcdLeaseManager marker = nodes.start("marker-" + UUID.randomUUID());
    UUID run = UUID.randomUUID();
    token(marker.acquire(run));
    marker.releaseAll();
    await("the marker orphan").atMost(PATIENCE).until(() -> watcher.count(run) == 1);
  }

  @Test
  void
      an_expired_lease_deletes_every_run_key_reports_each_orphan_once_and_later_tokens_are_larger() {
    EtcdLeaseManager a = nodes.start("node-a");
    EtcdLeaseManager b = nodes.start("node-b");
    OrphanRecorder watcher = new OrphanRecorder();
    try (Subscription ignored = b.watchOrphans(watcher)) {
      List<UUID> runs = runs(40);
      Map<UUID, AcquireResult> first = a.acquireAll(runs);

      a.close();

      await("run keys gone").atMost(PATIENCE).until(() -> nodes.runKeys().isEmpty());
      await("40 orphans").atMost(PATIENCE).until(() -> watcher.runIds().containsAll(runs));
      awaitQuiet(watcher);
      assertThat(watcher.duplicates()).isEmpty();
      assertThat(watcher.orphans())
          .filteredOn(o -> runs.contains(o.runId()))
          .hasSize(40)
          .allSatisfy(
              o -> {
                assertThat(o.previousOwner()).isEqualTo("node-a");
                assertThat(o.handoff()).isFalse();
              });
      Map<UUID, AcquireResult> second = b.acquireAll(runs);
      for (UUID run : runs) {
        assertThat(token(second.get(run))).isGreaterThan(token(first.get(run)));
      }
    }
  }

  @Test
  void release_all_hands_every_run_to_another_nodes_watcher_at_once() {
    EtcdLeaseManager b = nodes.start("node-b");
    OrphanRecorder watcher = new OrphanRecorder();
    try (Subscription ignored = b.watchOrphans(watcher)) {
      awaitQuiet(watcher); // the watch is live and warm before the clock starts
      EtcdLeaseManager a = nodes.start("node-a");
      List<UUID> runs = runs(500);
      a.acquireAll(runs);

      long revokedAt = System.nanoTime();
      a.releaseAll();
      await("500 orphans").atMost(PATIENCE).until(() -> watcher.runIds().containsAll(runs));

      long millis = (watcher.lastArrivalNanos() - revokedAt) / 1_000_000;
      System.out.printf(
          "releaseAll of 500 runs -> last orphan seen by another node: %d ms%n", millis);
      assertThat(millis)
          .as("revoke to last orphan, ms (the benchmark has the figure)")
          .isLessThan(300);
      assertThat(watcher.orphans())
          .filteredOn(o -> runs.contains(o.runId()))
          .allSatisfy(o -> assertThat(o.handoff()).isTrue());
      assertThat(nodes.isListed("node-a")).isFalse();
    }
  }

  @Test
  void acquire_all_beyond_one_transaction_reports_each_run_and_attaches_them_to_the_node_lease() {
    EtcdLeaseManager a = nodes.start("node-a");
    EtcdLeaseManager b = nodes.start("node-b");
    List<UUID> runs = runs(1000);
    List<UUID> taken = List.of(runs.get(0), runs.get(125), runs.get(126), runs.get(999));
    b.acquireAll(taken);

    Instant before = Instant.now();
    Map<UUID, AcquireResult> results = a.acquireAll(runs);

    assertThat(results).hasSize(1000);
    for (UUID run : taken) {
      assertThat(results.get(run))
          .isInstanceOfSatisfying(
              AcquireResult.OwnedBy.class,
              owned -> {
                assertThat(owned.owner()).isEqualTo("node-b");
                assertThat(owned.expiresAt())
                    .isAfter(before)
                    .isBefore(before.plus(TTL).plusSeconds(2));
              });
    }
    assertThat(results.values().stream().filter(AcquireResult::isAcquired)).hasSize(996);
    long leaseOfA = nodes.leaseOf("node-a");
    List<KeyValue> keys = nodes.keys("runs/");
    assertThat(keys).hasSize(1000);
    assertThat(keys.stream().filter(kv -> kv.getLease() == leaseOfA)).hasSize(996);
  }

  @Test
  void releasing_many_runs_spans_transactions_and_reports_no_orphan() {
    EtcdLeaseManager a = nodes.start("node-a");
    EtcdLeaseManager b = nodes.start("node-b");
    OrphanRecorder watcher = new OrphanRecorder();
    try (Subscription ignored = b.watchOrphans(watcher)) {
      List<UUID> runs = runs(300);
      a.acquireAll(runs);
      UUID theirs = UUID.randomUUID();
      token(b.acquire(theirs));
      List<UUID> toRelease = new ArrayList<>(runs);
      toRelease.add(theirs);

      assertThat(a.releaseAll(toRelease)).containsExactly(theirs);

      assertThat(nodes.runKeys()).containsExactly(theirs);
      awaitQuiet(watcher);
      assertThat(watcher.runIds()).doesNotContainAnyElementsOf(runs);
    }
  }

  @Test
  void a_node_restarted_after_a_crash_waits_for_its_old_lease_to_expire_then_starts() {
    EtcdLeaseManager before = nodes.start("node-a");
    List<UUID> runs = runs(2);
    long oldToken = token(before.acquire(runs.get(0)));
    token(before.acquire(runs.get(1)));
    long oldLease = nodes.leaseOf("node-a");
    EtcdLeaseManager b = nodes.start("node-b");
    OrphanRecorder watcher = new OrphanRecorder();
    try (Subscription ignored = b.watchOrphans(watcher)) {
      before.close(); // crashed: its lease lives on until the TTL passes
      long crashedAt = System.nanoTime();
      EtcdLeaseManager after = nodes.create("node-a", config -> config);

      after.start(EtcdNodes.info("node-a")); // waits, and is not refused

      Duration waited = Duration.ofNanos(System.nanoTime() - crashedAt);
      assertThat(waited).isLessThan(TTL.plus(NodeIdGuard.EXPIRY_MARGIN));
      assertThat(nodes.leaseOf("node-a")).isNotEqualTo(oldLease);
      await("both runs orphaned with the old lease")
          .atMost(PATIENCE)
          .until(() -> watcher.runIds().containsAll(runs));
      assertThat(watcher.orphans())
          .extracting(Orphan::previousOwner, Orphan::handoff)
          .containsOnly(Tuple.tuple("node-a", false));
      assertThat(token(after.acquire(runs.get(0)))).isGreaterThan(oldToken);
    }
  }

  @Test
  void a_node_whose_id_was_taken_while_its_lease_was_gone_stays_lost_and_the_taker_keeps_it() {
    EtcdLeaseManager cutOff =
        nodes.start("node-a", config -> config.leaseTtl(Duration.ofSeconds(30)));
    nodes.revokeLeaseOf("node-a");
    EtcdLeaseManager taker = nodes.create("node-a", config -> config);
    taker.start(new NodeInfo("node-a", "10.0.0.9:8080", Instant.now(), "test", false));
    long takersLease = nodes.leaseOf("node-a");

    cutOff.heartbeat(); // finds its lease gone: LOST
    cutOff.heartbeat(); // a fresh lease, but the node key is the taker's

    assertThat(cutOff.state()).isEqualTo(ConnectionState.LOST);
    assertThat(taker.state()).isEqualTo(ConnectionState.CONNECTED);
    assertThat(taker.listNodes())
        .singleElement()
        .satisfies(node -> assertThat(node.address()).isEqualTo("10.0.0.9:8080"));
    assertThat(nodes.leaseOf("node-a")).isEqualTo(takersLease);
  }

  @Test
  void a_lease_revoked_behind_the_nodes_back_makes_it_lost_then_connected_on_a_fresh_lease() {
    EtcdLeaseManager a = nodes.start("node-a");
    List<ConnectionState> states = new CopyOnWriteArrayList<>();
    a.onStateChange(states::add);
    long oldLease = nodes.leaseOf("node-a");

    nodes.revokeLeaseOf("node-a");

    await("the node notices")
        .atMost(PATIENCE)
        .ignoreException(LeaseUnavailableException.class)
        .until(() -> a.acquire(UUID.randomUUID()).isAcquired());
    assertThat(states).containsSubsequence(ConnectionState.LOST, ConnectionState.CONNECTED);
    assertThat(a.state()).isEqualTo(ConnectionState.CONNECTED);
    assertThat(nodes.leaseOf("node-a")).isNotEqualTo(oldLease);
  }

  @Test
  void a_call_on_a_lease_etcd_no_longer_has_fails_as_unavailable_and_renews_at_once() {
    EtcdLeaseManager a = nodes.start("node-a", config -> config.leaseTtl(Duration.ofSeconds(30)));
    nodes.revokeLeaseOf("node-a");

    assertThatThrownBy(() -> a.acquire(UUID.randomUUID()))
        .isInstanceOf(LeaseUnavailableException.class);

    // Without the nudge the keeper would only notice at its next renewal, 10 s from now.
    await("a fresh lease").atMost(Duration.ofSeconds(5)).until(() -> nodes.isListed("node-a"));
    assertThat(a.acquire(UUID.randomUUID()).isAcquired()).isTrue();
  }

  @Test
  void the_node_key_holds_the_announced_info_as_json_on_the_node_lease() throws Exception {
    EtcdLeaseManager a = nodes.create("node-a", config -> config);
    Instant startedAt = Instant.parse("2026-11-21T10:15:30.123Z");
    a.start(new NodeInfo("node-a", "10.0.0.7:8080", startedAt, "1.2.3", false));

    KeyValue key = nodes.keys("nodes/").get(0);
    JsonNode json = new ObjectMapper().readTree(EtcdNodes.text(key.getValue()));
    assertThat(EtcdNodes.text(key.getKey())).isEqualTo(nodes.prefix() + "nodes/node-a");
    assertThat(json.get("address").asText()).isEqualTo("10.0.0.7:8080");
    assertThat(json.get("startedAt").asText()).isEqualTo("2026-11-21T10:15:30.123Z");
    assertThat(json.get("version").asText()).isEqualTo("1.2.3");
    assertThat(json.get("draining").asBoolean()).isFalse();
    assertThat(key.getLease()).isNotZero();
    assertThat(a.listNodes())
        .containsExactly(new NodeInfo("node-a", "10.0.0.7:8080", startedAt, "1.2.3", false));
  }

  @Test
  void another_node_reads_the_owner_token_and_expiry_of_a_run() {
    EtcdLeaseManager a = nodes.start("node-a");
    EtcdLeaseManager b = nodes.start("node-b");
    UUID run = UUID.randomUUID();
    long token = token(a.acquire(run));

    Instant before = Instant.now();
    RunLease seenByB = b.getLease(run).orElseThrow();
    RunLease seenByA = a.getLease(run).orElseThrow();

    assertThat(seenByB.owner()).isEqualTo("node-a");
    assertThat(seenByB.token()).isEqualTo(token);
    assertThat(seenByB.expiresAt()).isAfter(before).isBefore(before.plus(TTL).plusSeconds(2));
    assertThat(seenByA.expiresAt())
        .isAfter(before.minus(TTL))
        .isBefore(before.plus(TTL).plusSeconds(1));
  }

  @Test
  void runs_released_just_before_a_revoke_are_not_orphans_and_the_rest_are_handoffs() {
    EtcdLeaseManager a = nodes.start("node-a");
    EtcdLeaseManager b = nodes.start("node-b");
    OrphanRecorder watcher = new OrphanRecorder();
    try (Subscription ignored = b.watchOrphans(watcher)) {
      List<UUID> runs = runs(20);
      a.acquireAll(runs);
      a.releaseAll(runs.subList(0, 10));
      a.releaseAll();

      await("10 orphans")
          .atMost(PATIENCE)
          .until(() -> watcher.runIds().containsAll(runs.subList(10, 20)));
      awaitQuiet(watcher);
      assertThat(watcher.runIds()).doesNotContainAnyElementsOf(runs.subList(0, 10));
      assertThat(watcher.orphans())
          .filteredOn(o -> runs.contains(o.runId()))
          .extracting(Orphan::handoff)
          .containsOnly(true);
    }
  }

  @Test
  void a_closed_manager_refuses_calls_and_closing_again_does_nothing() {
    EtcdLeaseManager a = nodes.start("node-a");
    a.close();
    a.close();
    assertThatThrownBy(() -> a.acquire(UUID.randomUUID()))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> a.start(EtcdNodes.info("node-a")))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void a_manager_refuses_to_announce_another_node() {
    EtcdLeaseManager a = nodes.create("node-a", config -> config);
    assertThatThrownBy(() -> a.start(EtcdNodes.info("node-b")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("node-b");
  }

  @Test
  void starting_against_an_unreachable_etcd_fails_as_unavailable() {
    EtcdLeaseManager a =
        nodes.create(
            "node-a", config -> config.endpoints(List.of(URI.create("http://127.0.0.1:1"))));
    assertThatThrownBy(() -> a.start(EtcdNodes.info("node-a")))
        .isInstanceOf(LeaseUnavailableException.class);
  }
}

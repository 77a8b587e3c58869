package io.baton.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link LeaseManager}. The in-memory and the etcd implementation extend this class
 * and supply only a {@link LeaseCluster}: a backend that several nodes' managers share.
 */
public abstract class LeaseManagerComplianceSuite {
  /** The lease TTL the suite runs with: short, so that expiry tests stay quick on real time. */
  protected static final Duration TTL = Duration.ofSeconds(2);

  /** Several nodes' lease managers on one lease service, and control over time. */
  protected interface LeaseCluster extends AutoCloseable {
    /** A new, started manager for {@code nodeId} with the suite's TTL. */
    LeaseManager startNode(String nodeId);

    /** A new manager for {@code nodeId} with the suite's TTL, not started. */
    LeaseManager createNode(String nodeId);

    /**
     * Lets the node's lease expire as if the node had died: stop renewing it and wait (or advance
     * time) until the lease service has expired it.
     */
    void expire(LeaseManager node);

    /**
     * Takes the node's lease away behind its back, as the lease service would (it expired while the
     * node could not reach the service, or an operator revoked it), and returns once the node has
     * seen it LOST. The node then grants itself a fresh lease on its own.
     */
    void loseLease(LeaseManager node);

    /** Waits, moving time on if time is simulated, until the condition holds; fails otherwise. */
    void await(String what, BooleanSupplier condition);

    /** Now, on the lease service's clock. */
    Instant now();
  }

  protected abstract LeaseCluster createCluster() throws Exception;

  protected LeaseCluster cluster;
  private final List<LeaseManager> managers = new ArrayList<>();

  @BeforeEach
  void openCluster() throws Exception {
    cluster = createCluster();
  }

  @AfterEach
  void closeCluster() throws Exception {
    managers.forEach(LeaseManager::close);
    cluster.close();
  }

  protected LeaseManager node(String nodeId) {
    LeaseManager manager = cluster.startNode(nodeId);
    managers.add(manager);
    return manager;
  }

  /** A manager that is not started yet; closed after the test like the others. */
  protected LeaseManager unstarted(String nodeId) {
    LeaseManager manager = cluster.createNode(nodeId);
    managers.add(manager);
    return manager;
  }

  private NodeInfo info(String nodeId, String address) {
    return new NodeInfo(nodeId, address, cluster.now(), "test", false);
  }

  private static long token(AcquireResult result) {
    assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
    return ((AcquireResult.Acquired) result).token();
  }

  /** Records orphans and watch gaps pushed to it. */
  protected static final class OrphanRecorder implements OrphanListener {
    final List<Orphan> orphans = new CopyOnWriteArrayList<>();
    final List<String> gaps = new CopyOnWriteArrayList<>();
    final List<String> nodesGone = new CopyOnWriteArrayList<>();
    final Map<String, Long> goneAtRevision = new ConcurrentHashMap<>();
    final List<String> pendingFrom = new CopyOnWriteArrayList<>();

    @Override
    public void onOrphans(List<Orphan> batch) {
      orphans.addAll(batch);
    }

    @Override
    public void onNodeGone(String nodeId, boolean handoff, long revision) {
      nodesGone.add(nodeId + (handoff ? " handoff" : " expired"));
      goneAtRevision.put(nodeId, revision);
    }

    @Override
    public void onWatchGap(String reason) {
      gaps.add(reason);
    }

    @Override
    public void onPendingRuns(String fromNode) {
      pendingFrom.add(fromNode);
    }

    long count(UUID runId) {
      return orphans.stream().filter(o -> o.runId().equals(runId)).count();
    }
  }

  @Test
  void a_started_node_is_connected_and_listed() {
    LeaseManager a = node("node-a");
    assertThat(a.state()).isEqualTo(ConnectionState.CONNECTED);
    assertThat(a.nodeId()).isEqualTo("node-a");
    assertThat(a.listNodes()).extracting(NodeInfo::nodeId).contains("node-a");
    NodeInfo info =
        a.listNodes().stream().filter(n -> n.nodeId().equals("node-a")).findFirst().orElseThrow();
    assertThat(info.address()).isEqualTo("127.0.0.1:8080");
    assertThat(info.draining()).isFalse();
  }

  @Test
  void each_live_nodes_lease_ends_within_about_a_ttl_unless_renewed_and_an_expired_one_is_gone() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    Instant before = cluster.now();
    Map<String, Instant> expiries = a.nodeLeaseExpiries();
    Instant after = cluster.now();
    assertThat(expiries).containsKeys("node-a", "node-b");
    for (String nodeId : List.of("node-a", "node-b")) {
      assertThat(expiries.get(nodeId))
          .as(nodeId)
          .isAfter(before)
          // etcd answers in whole seconds and the answer is the upper bound
          .isBeforeOrEqualTo(after.plus(TTL).plusSeconds(1));
    }
    cluster.expire(b);
    assertThat(a.nodeLeaseExpiries()).containsKey("node-a").doesNotContainKey("node-b");
  }

  @Test
  void acquiring_a_free_run_returns_a_positive_token_and_records_the_lease() {
    LeaseManager a = node("node-a");
    UUID run = UUID.randomUUID();
    long token = token(a.acquire(run));
    assertThat(token).isPositive();
    RunLease lease = a.getLease(run).orElseThrow();
    assertThat(lease.owner()).isEqualTo("node-a");
    assertThat(lease.token()).isEqualTo(token);
    assertThat(lease.expiresAt()).isNotNull();
  }

  @Test
  void the_owner_may_acquire_again_with_a_token_not_smaller() {
    LeaseManager a = node("node-a");
    UUID run = UUID.randomUUID();
    long first = token(a.acquire(run));
    long second = token(a.acquire(run));
    assertThat(second).isGreaterThanOrEqualTo(first);
    assertThat(a.getLease(run).orElseThrow().token()).isEqualTo(second);
  }

  @Test
  void another_node_learns_the_owner_and_when_its_lease_expires() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    UUID run = UUID.randomUUID();
    token(a.acquire(run));
    AcquireResult result = b.acquire(run);
    assertThat(result)
        .isInstanceOfSatisfying(
            AcquireResult.OwnedBy.class,
            owned -> {
              assertThat(owned.owner()).isEqualTo("node-a");
              assertThat(owned.expiresAt()).isAfter(cluster.now());
            });
  }

  @Test
  void tokens_grow_across_owners() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    UUID run = UUID.randomUUID();
    long first = token(a.acquire(run));
    a.release(run);
    long second = token(b.acquire(run));
    b.release(run);
    long third = token(a.acquire(run));
    assertThat(second).isGreaterThan(first);
    assertThat(third).isGreaterThan(second);
  }

  @Test
  void a_non_owner_cannot_release_and_the_lease_stays() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    UUID run = UUID.randomUUID();
    long token = token(a.acquire(run));
    assertThatThrownBy(() -> b.release(run))
        .isInstanceOfSatisfying(
            NotOwnerException.class, e -> assertThat(e.owner()).isEqualTo("node-a"));
    assertThat(a.getLease(run).orElseThrow().token()).isEqualTo(token);
  }

  @Test
  void releasing_frees_the_run_and_releasing_a_free_run_does_nothing() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    UUID run = UUID.randomUUID();
    token(a.acquire(run));
    a.release(run);
    assertThat(a.getLease(run)).isEmpty();
    a.release(run);
    token(b.acquire(run));
  }

  @Test
  void acquire_all_reports_each_run_on_its_own() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    List<UUID> runs = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      runs.add(UUID.randomUUID());
    }
    UUID taken = runs.get(150);
    token(b.acquire(taken));

    Map<UUID, AcquireResult> results = a.acquireAll(runs);

    assertThat(results).hasSize(300);
    assertThat(results.get(taken)).isInstanceOf(AcquireResult.OwnedBy.class);
    Map<UUID, Long> tokens = new HashMap<>();
    results.forEach(
        (run, result) -> {
          if (!run.equals(taken)) {
            tokens.put(run, token(result));
          }
        });
    assertThat(tokens).hasSize(299);
    assertThat(a.getLease(runs.get(0)).orElseThrow().owner()).isEqualTo("node-a");
  }

  @Test
  void acquire_all_on_runs_already_owned_by_the_node_succeeds() {
    LeaseManager a = node("node-a");
    List<UUID> runs = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
    Map<UUID, AcquireResult> first = a.acquireAll(runs);
    Map<UUID, AcquireResult> again = a.acquireAll(runs);
    for (UUID run : runs) {
      assertThat(token(again.get(run))).isGreaterThanOrEqualTo(token(first.get(run)));
    }
  }

  @Test
  void release_all_of_some_runs_reports_those_owned_by_others() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    UUID mine = UUID.randomUUID();
    UUID theirs = UUID.randomUUID();
    token(a.acquire(mine));
    token(b.acquire(theirs));
    assertThat(a.releaseAll(List.of(mine, theirs))).containsExactly(theirs);
    assertThat(a.getLease(mine)).isEmpty();
    assertThat(a.getLease(theirs)).isPresent();
  }

  @Test
  void a_normal_release_is_not_an_orphan() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    OrphanRecorder watcher = new OrphanRecorder();
    try (Subscription ignored = b.watchOrphans(watcher)) {
      UUID released = UUID.randomUUID();
      UUID marker = UUID.randomUUID();
      token(a.acquire(released));
      a.release(released);
      token(a.acquire(marker));
      a.releaseAll();
      cluster.await("the marker orphan", () -> watcher.count(marker) == 1);
      assertThat(watcher.count(released)).isZero();
    }
  }

  @Test
  void release_all_revokes_the_node_and_every_watcher_sees_each_run_as_a_handoff() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    OrphanRecorder watcher = new OrphanRecorder();
    try (Subscription ignored = b.watchOrphans(watcher)) {
      List<UUID> runs = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        runs.add(UUID.randomUUID());
      }
      a.acquireAll(runs);
      a.releaseAll();

      cluster.await("50 orphans", () -> watcher.orphans.size() >= 50);
      assertThat(watcher.orphans)
          .extracting(Orphan::runId)
          .containsExactlyInAnyOrderElementsOf(runs);
      assertThat(watcher.orphans)
          .allSatisfy(
              o -> {
                assertThat(o.previousOwner()).isEqualTo("node-a");
                assertThat(o.handoff()).isTrue();
              });
      assertThat(b.listNodes()).extracting(NodeInfo::nodeId).doesNotContain("node-a");
      for (UUID run : runs) {
        assertThat(b.getLease(run)).isEmpty();
      }
      long token = token(b.acquire(runs.get(0)));
      assertThat(token).isPositive();
    }
  }

  @Test
  void an_expired_lease_orphans_each_run_exactly_once_and_later_tokens_are_larger() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    OrphanRecorder watcher = new OrphanRecorder();
    try (Subscription ignored = b.watchOrphans(watcher)) {
      UUID first = UUID.randomUUID();
      UUID second = UUID.randomUUID();
      long tokenA = token(a.acquire(first));
      token(a.acquire(second));

      cluster.expire(a);

      cluster.await("both orphans", () -> watcher.count(first) == 1 && watcher.count(second) == 1);
      assertThat(watcher.orphans)
          .filteredOn(o -> o.runId().equals(first))
          .singleElement()
          .satisfies(
              o -> {
                assertThat(o.previousOwner()).isEqualTo("node-a");
                assertThat(o.handoff()).isFalse();
              });
      assertThat(b.listNodes()).extracting(NodeInfo::nodeId).doesNotContain("node-a");
      assertThat(token(b.acquire(first))).isGreaterThan(tokenA);
      assertThat(watcher.count(first)).isEqualTo(1);
    }
  }

  @Test
  void the_node_token_is_larger_than_every_earlier_token_and_smaller_than_every_later_one() {
    LeaseManager a = node("node-a");
    long before = token(a.acquire(UUID.randomUUID()));
    LeaseManager b = node("node-b");
    long nodeToken = b.nodeToken();
    long after = token(a.acquire(UUID.randomUUID()));
    assertThat(nodeToken).isGreaterThan(before).isLessThan(after);
    assertThat(b.nodeToken()).as("stable while the lease lives").isEqualTo(nodeToken);
  }

  @Test
  void watchers_learn_once_that_a_node_is_gone_when_it_releases_everything() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    OrphanRecorder watcher = new OrphanRecorder();
    try (Subscription ignored = b.watchOrphans(watcher)) {
      UUID run = UUID.randomUUID();
      token(a.acquire(run));
      a.release(run);
      long nodeToken = a.nodeToken();
      long runToken = token(a.acquire(UUID.randomUUID()));
      a.releaseAll();
      cluster.await("node-a gone", () -> watcher.nodesGone.contains("node-a handoff"));
      assertThat(watcher.nodesGone).containsExactly("node-a handoff");
      assertThat(watcher.goneAtRevision.get("node-a"))
          .isGreaterThan(nodeToken)
          .isGreaterThan(runToken);
    }
  }

  @Test
  void a_pending_hint_reaches_every_watcher_on_every_node_with_the_hinting_node() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    OrphanRecorder onA = new OrphanRecorder();
    OrphanRecorder onB = new OrphanRecorder();
    try (Subscription watchA = a.watchOrphans(onA);
        Subscription watchB = b.watchOrphans(onB)) {
      a.hintPending();
      cluster.await("hint on node-b", () -> onB.pendingFrom.contains("node-a"));
      cluster.await("hint on node-a", () -> onA.pendingFrom.contains("node-a"));
      assertThat(onB.orphans).as("a hint is no orphan").isEmpty();
      assertThat(onB.nodesGone).as("nor a departure").isEmpty();
    }
  }

  @Test
  void watchers_learn_that_a_node_is_gone_when_its_lease_expires() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    OrphanRecorder watcher = new OrphanRecorder();
    try (Subscription ignored = b.watchOrphans(watcher)) {
      cluster.expire(a);
      cluster.await("node-a gone", () -> watcher.nodesGone.contains("node-a expired"));
      assertThat(watcher.nodesGone).containsExactly("node-a expired");
    }
  }

  @Test
  void a_node_announced_as_draining_is_listed_as_such() {
    LeaseManager a = node("node-a");
    NodeInfo info =
        a.listNodes().stream().filter(n -> n.nodeId().equals("node-a")).findFirst().orElseThrow();
    a.announce(info.asDraining());
    assertThat(a.listNodes())
        .filteredOn(n -> n.nodeId().equals("node-a"))
        .singleElement()
        .satisfies(n -> assertThat(n.draining()).isTrue());
  }

  @Test
  void a_node_s_announced_load_is_listed_as_announced_with_its_rebalancing_in_progress() {
    LeaseManager a = node("node-a");
    NodeInfo info =
        a.listNodes().stream().filter(n -> n.nodeId().equals("node-a")).findFirst().orElseThrow();
    NodeLoad load = new NodeLoad(70, 1.5, true, 3, 1, 20, Map.of("node-b", 4, "node-c", 5));
    a.announce(info.withLoad(load));
    assertThat(a.listNodes())
        .filteredOn(n -> n.nodeId().equals("node-a"))
        .singleElement()
        .satisfies(n -> assertThat(n.load()).isEqualTo(load));
  }

  @Test
  void heartbeats_keep_the_lease_beyond_its_ttl() {
    LeaseManager a = node("node-a");
    UUID run = UUID.randomUUID();
    long token = token(a.acquire(run));
    Instant end = cluster.now().plus(TTL).plus(TTL.dividedBy(2));
    cluster.await("one and a half TTLs", () -> !cluster.now().isBefore(end));
    assertThat(a.state()).isEqualTo(ConnectionState.CONNECTED);
    assertThat(a.getLease(run).orElseThrow().token()).isEqualTo(token);
  }

  @Test
  void a_lost_lease_is_gone_at_a_revision_above_its_tokens_and_below_those_of_the_fresh_lease() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    OrphanRecorder watcher = new OrphanRecorder();
    try (Subscription ignored = b.watchOrphans(watcher)) {
      long oldNodeToken = a.nodeToken();
      long oldRunToken = token(a.acquire(UUID.randomUUID()));

      cluster.loseLease(a);
      cluster.await("node-a gone", () -> watcher.goneAtRevision.containsKey("node-a"));
      cluster.await("node-a on a fresh lease", () -> holdsFreshLease(a, oldNodeToken));

      long gone = watcher.goneAtRevision.get("node-a");
      assertThat(watcher.nodesGone).containsExactly("node-a expired");
      assertThat(oldNodeToken).isLessThan(gone);
      assertThat(oldRunToken).isLessThan(gone);
      assertThat(a.nodeToken()).isGreaterThan(gone);
      assertThat(token(a.acquire(UUID.randomUUID()))).isGreaterThan(gone);
    }
  }

  private static boolean holdsFreshLease(LeaseManager node, long oldNodeToken) {
    try {
      return node.state() == ConnectionState.CONNECTED && node.nodeToken() != oldNodeToken;
    } catch (LeaseUnavailableException notYet) {
      return false;
    }
  }

  @Test
  void a_node_restarted_after_its_lease_expired_has_tokens_above_the_revision_it_was_gone_at() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    OrphanRecorder watcher = new OrphanRecorder();
    try (Subscription ignored = b.watchOrphans(watcher)) {
      long oldNodeToken = a.nodeToken();
      long oldRunToken = token(a.acquire(UUID.randomUUID()));

      cluster.expire(a);
      cluster.await("node-a gone", () -> watcher.goneAtRevision.containsKey("node-a"));
      LeaseManager restarted = node("node-a");

      long gone = watcher.goneAtRevision.get("node-a");
      assertThat(oldNodeToken).isLessThan(gone);
      assertThat(oldRunToken).isLessThan(gone);
      assertThat(restarted.nodeToken()).isGreaterThan(gone);
      assertThat(token(restarted.acquire(UUID.randomUUID()))).isGreaterThan(gone);
    }
  }

  @Test
  void live_nodes_name_each_nodes_incarnation_by_its_node_token() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    LiveNodes live = b.liveNodes();
    assertThat(live.tokenOf("node-a")).hasValue(a.nodeToken());
    assertThat(live.tokenOf("node-b")).hasValue(b.nodeToken());
    assertThat(live.tokenOf("node-z")).isEmpty();
  }

  @Test
  void revoking_a_dead_nodes_lease_orphans_its_runs_now_as_a_death_not_a_handoff() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    UUID run = UUID.randomUUID();
    long runToken = token(a.acquire(run));
    OrphanRecorder watcher = new OrphanRecorder();
    try (Subscription ignored = b.watchOrphans(watcher)) {
      long incarnation = b.liveNodes().tokenOf("node-a").orElseThrow();

      // node-a goes on renewing: only the revocation can orphan its run.
      assertThat(b.revokeDeadNode("node-a", incarnation)).isTrue();

      cluster.await("node-a's run orphaned", () -> watcher.count(run) == 1);
      cluster.await("node-a gone", () -> watcher.goneAtRevision.containsKey("node-a"));
      assertThat(watcher.orphans).singleElement().satisfies(o -> assertThat(o.handoff()).isFalse());
      assertThat(watcher.nodesGone).containsExactly("node-a expired");
      assertThat(b.getLease(run)).isEmpty();
      assertThat(token(b.acquire(run))).isGreaterThan(runToken);
      assertThat(b.revokeDeadNode("node-a", incarnation)).isFalse();
    }
  }

  @Test
  void a_node_whose_lease_was_revoked_as_dead_comes_back_on_a_fresh_lease_with_larger_tokens() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    long oldNodeToken = a.nodeToken();
    assertThat(b.revokeDeadNode("node-a", oldNodeToken)).isTrue();
    cluster.await("node-a on a fresh lease", () -> renewsOntoFreshLease(a, oldNodeToken));
    assertThat(a.nodeToken()).isGreaterThan(oldNodeToken);
  }

  @Test
  void revoking_an_earlier_incarnation_leaves_the_fresh_lease_alone() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    long oldNodeToken = a.nodeToken();
    cluster.loseLease(a);
    cluster.await("node-a on a fresh lease", () -> holdsFreshLease(a, oldNodeToken));
    UUID run = UUID.randomUUID();
    long runToken = token(a.acquire(run));

    assertThat(b.revokeDeadNode("node-a", oldNodeToken)).isFalse();
    assertThat(b.revokeDeadNode("node-z", oldNodeToken)).isFalse();

    assertThat(a.state()).isEqualTo(ConnectionState.CONNECTED);
    assertThat(b.getLease(run).orElseThrow().token()).isEqualTo(runToken);
    assertThat(b.liveNodes().tokenOf("node-a")).hasValue(a.nodeToken());
  }

  @Test
  void
      a_node_that_stands_down_gives_its_runs_away_as_a_death_and_takes_no_lease_until_it_resumes() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    UUID run = UUID.randomUUID();
    long runToken = token(a.acquire(run));
    long oldNodeToken = a.nodeToken();
    OrphanRecorder watcher = new OrphanRecorder();
    try (Subscription ignored = b.watchOrphans(watcher)) {
      a.standDown();

      assertThat(a.state()).isEqualTo(ConnectionState.LOST);
      cluster.await("node-a's run orphaned", () -> watcher.count(run) == 1);
      assertThat(watcher.orphans).singleElement().satisfies(o -> assertThat(o.handoff()).isFalse());
      assertThat(token(b.acquire(run))).isGreaterThan(runToken);

      Instant later = cluster.now().plus(TTL.multipliedBy(2));
      cluster.await("two TTLs", () -> !cluster.now().isBefore(later));
      assertThat(a.state())
          .as("no fresh lease while standing down")
          .isEqualTo(ConnectionState.LOST);
      assertThat(b.liveNodes().tokenOf("node-a")).isEmpty();

      a.resume();

      assertThat(a.state()).isEqualTo(ConnectionState.CONNECTED);
      assertThat(a.nodeToken()).isGreaterThan(oldNodeToken);
      assertThat(b.liveNodes().tokenOf("node-a")).hasValue(a.nodeToken());
      assertThat(a.acquire(run)).isInstanceOf(AcquireResult.OwnedBy.class);
      UUID fresh = UUID.randomUUID();
      assertThat(token(a.acquire(fresh))).isGreaterThan(runToken);
      Instant renewed = cluster.now().plus(TTL.multipliedBy(2));
      cluster.await("two more TTLs", () -> !cluster.now().isBefore(renewed));
      assertThat(a.state()).as("renewed after resuming").isEqualTo(ConnectionState.CONNECTED);
    }
  }

  @Test
  void resuming_a_node_that_did_not_stand_down_does_nothing() {
    LeaseManager a = node("node-a");
    long nodeToken = a.nodeToken();
    a.resume();
    assertThat(a.nodeToken()).isEqualTo(nodeToken);
    assertThat(a.state()).isEqualTo(ConnectionState.CONNECTED);
  }

  @Test
  void an_offered_run_is_released_and_listed_for_the_receiver_who_claims_it_with_a_larger_token() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    UUID keyed = UUID.randomUUID();
    UUID keyless = UUID.randomUUID();
    UUID others = UUID.randomUUID();
    long keyedToken = token(a.acquire(keyed));
    token(b.acquire(others));
    OrphanRecorder watcher = new OrphanRecorder();
    try (Subscription ignored = b.watchOrphans(watcher)) {
      assertThat(a.offer(List.of(keyed, keyless, others), "node-b")).containsExactly(others);

      assertThat(a.getLease(keyed)).isEmpty();
      assertThat(b.offersTo("node-b"))
          .containsOnly(entry(keyed, "node-a"), entry(keyless, "node-a"));
      assertThat(a.offersTo("node-a")).isEmpty();
      assertThat(token(b.acquire(keyed))).isGreaterThan(keyedToken);
      assertThat(token(b.acquire(keyless))).isGreaterThan(a.nodeToken());
      b.withdrawOffers(List.of(keyed, keyless), "node-b");
      assertThat(b.offersTo("node-b")).isEmpty();
      assertThat(watcher.orphans).as("an offer is not an orphan").isEmpty();
    }
  }

  @Test
  void offers_vanish_with_the_lease_of_the_node_that_made_them() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    UUID run = UUID.randomUUID();
    a.acquire(run);
    a.offer(List.of(run), "node-b");
    assertThat(b.offersTo("node-b")).containsOnlyKeys(run);

    cluster.expire(a);

    cluster.await("node-a's offers gone", () -> b.offersTo("node-b").isEmpty());
  }

  /** Heartbeats until the node holds a lease other than the one granted at {@code oldNodeToken}. */
  private static boolean renewsOntoFreshLease(LeaseManager node, long oldNodeToken) {
    try {
      node.heartbeat();
    } catch (RuntimeException notYet) {
      // the heartbeat that finds the lease gone may throw; the next grants a fresh one
    }
    return holdsFreshLease(node, oldNodeToken);
  }

  @Test
  void live_nodes_are_read_at_a_revision_not_below_their_node_tokens() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    LiveNodes live = a.liveNodes();
    assertThat(live.nodes())
        .extracting(NodeInfo::nodeId)
        .containsExactlyInAnyOrder("node-a", "node-b");
    assertThat(live.revision())
        .isGreaterThanOrEqualTo(a.nodeToken())
        .isGreaterThanOrEqualTo(b.nodeToken());
    assertThat(a.listNodes())
        .extracting(NodeInfo::nodeId)
        .containsExactlyInAnyOrder("node-a", "node-b");
  }

  @Test
  void a_node_absent_from_a_live_nodes_read_that_announces_itself_later_has_a_larger_token() {
    LeaseManager a = node("node-a");
    LeaseManager b = node("node-b");
    cluster.expire(a);
    LiveNodes withoutA = b.liveNodes();
    assertThat(withoutA.nodes()).extracting(NodeInfo::nodeId).containsExactly("node-b");

    LeaseManager restarted = node("node-a");

    assertThat(restarted.nodeToken()).isGreaterThan(withoutA.revision());
    assertThat(token(restarted.acquire(UUID.randomUUID()))).isGreaterThan(withoutA.revision());
    assertThat(b.liveNodes().revision()).isGreaterThanOrEqualTo(restarted.nodeToken());
  }

  @Test
  void a_second_manager_with_the_same_node_id_refuses_to_start_while_the_first_renews() {
    LeaseManager first = unstarted("node-a");
    first.start(info("node-a", "10.0.0.1:8080"));
    long firstToken = first.nodeToken();
    LeaseManager second = unstarted("node-a");

    assertThatThrownBy(() -> second.start(info("node-a", "10.0.0.2:8080")))
        .isInstanceOfSatisfying(
            NodeIdInUseException.class,
            refused -> {
              assertThat(refused.nodeId()).contains("node-a");
              assertThat(refused.otherAddress()).isEqualTo("10.0.0.1:8080");
              assertThat(refused)
                  .hasMessage("node id node-a is already in use by the process at 10.0.0.1:8080");
            });

    assertThat(first.state()).isEqualTo(ConnectionState.CONNECTED);
    assertThat(first.nodeToken()).isEqualTo(firstToken);
    assertThat(first.liveNodes().nodes())
        .singleElement()
        .satisfies(node -> assertThat(node.address()).isEqualTo("10.0.0.1:8080"));
    assertThat(first.acquire(UUID.randomUUID()).isAcquired()).isTrue();
  }

  @Test
  void a_node_id_whose_holder_was_killed_is_free_again_within_about_one_ttl() {
    LeaseManager killed = unstarted("node-a");
    killed.start(info("node-a", "10.0.0.1:8080"));
    long killedToken = killed.nodeToken();
    killed.close(); // stops renewing without revoking, as kill -9 would
    Instant killedAt = cluster.now();
    LeaseManager restarted = unstarted("node-a");

    cluster.await("the restarted node starts", () -> startsNow(restarted, "10.0.0.2:8080"));

    assertThat(Duration.between(killedAt, cluster.now()))
        .isLessThanOrEqualTo(TTL.plus(Duration.ofSeconds(2)));
    assertThat(restarted.state()).isEqualTo(ConnectionState.CONNECTED);
    assertThat(restarted.nodeToken()).isGreaterThan(killedToken);
    assertThat(restarted.liveNodes().nodes())
        .singleElement()
        .satisfies(node -> assertThat(node.address()).isEqualTo("10.0.0.2:8080"));
  }

  /** Starts the node, or reports that the id is still held (a manager may refuse at once). */
  private boolean startsNow(LeaseManager node, String address) {
    try {
      node.start(info(node.nodeId(), address));
      return true;
    } catch (NodeIdInUseException stillHeld) {
      return false;
    }
  }
}

package io.baton.engine;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.flow.Flow;
import io.baton.journal.ClaimReason;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.journal.replay.ClaimRecord;
import io.baton.journal.replay.Replay;
import io.baton.lease.ForwardingLeaseManager;
import io.baton.lease.LeaseManager;
import io.baton.lease.LiveNodes;
import io.baton.lease.Orphan;
import io.baton.lease.OrphanListener;
import io.baton.lease.Subscription;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.RunWriter;
import io.baton.testkit.InjectDefects;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A node whose lease was lost and granted afresh keeps the runs it runs under the new lease: a peer
 * that reacts late to the old lease's end, or that read the live nodes just before the node came
 * back, claims only runs fenced before. {@code -Dbaton.defects=CLAIMS_ACROSS_LEASES} shows both
 * tests failing without the rule.
 */
@ExtendWith(InjectDefects.class)
class RegrantedLeaseTest {
  /** node-b's lease manager, holding back departed-node events until the test lets them go. */
  private static final class LateWatch extends ForwardingLeaseManager {
    final List<Runnable> held = new ArrayList<>();
    Runnable afterLiveNodesRead = () -> {};

    LateWatch(LeaseManager delegate) {
      super(delegate);
    }

    @Override
    public Subscription watchOrphans(OrphanListener listener) {
      return delegate.watchOrphans(
          new OrphanListener() {
            @Override
            public void onOrphans(List<Orphan> orphans) {
              listener.onOrphans(orphans);
            }

            @Override
            public void onNodeGone(String nodeId, boolean handoff, long revision) {
              held.add(() -> listener.onNodeGone(nodeId, handoff, revision));
            }

            @Override
            public void onWatchGap(String reason) {
              listener.onWatchGap(reason);
            }
          });
    }

    @Override
    public LiveNodes liveNodes() {
      LiveNodes read = delegate.liveNodes();
      Runnable hook = afterLiveNodesRead;
      afterLiveNodesRead = () -> {};
      hook.run();
      return read;
    }
  }

  private LateWatch lateWatch;
  private final TestCluster cluster =
      new TestCluster()
          .recovery(RecoveryConfig.defaults().withCheckInterval(Duration.ofHours(1)))
          .leases(
              (nodeId, leases) -> {
                if (!nodeId.equals("node-b")) {
                  return leases;
                }
                lateWatch = new LateWatch(leases);
                return lateWatch;
              });

  @AfterEach
  void close() {
    cluster.close();
  }

  private List<String> claims(UUID runId) {
    return Replay.replay(cluster.stores.journal(), runId).orElseThrow().claims().stream()
        .map(ClaimRecord::node)
        .toList();
  }

  @Test
  void a_peer_late_to_the_old_leases_end_leaves_the_runs_of_the_new_lease_alone() {
    cluster.start("node-a");
    cluster.start("node-b");
    cluster.apply(TestFlows.named("held").step("hold", "gate", "{}").build());
    Orchestrator a = cluster.node("node-a").orchestrator();
    UUID before = cluster.await(a.submitAsync("held", json("{}"), null, null)).run().runId();

    cluster.leaseService.expire("node-a");
    cluster.node("node-a").leases().heartbeat();
    cluster.runUntil(
        () -> cluster.node("node-a").isReady() && !lateWatch.held.isEmpty(),
        Duration.ofSeconds(10));
    cluster.runUntil(() -> cluster.node("node-a").engine().owns(before), Duration.ofSeconds(10));
    UUID after = cluster.await(a.submitAsync("held", json("{}"), null, null)).run().runId();

    lateWatch.held.forEach(Runnable::run);
    cluster.scheduler.advance(Duration.ofSeconds(5));
    assertThat(claims(before)).as("re-adopted by its own node only").containsOnly("node-a");
    assertThat(claims(after)).containsExactly("node-a");
    assertThat(a.get(before).ownership().get(1).reason()).isEqualTo(ClaimReason.STARTUP);
  }

  @Test
  void a_pass_leaves_alone_a_run_started_by_a_node_that_came_back_after_the_live_nodes_read() {
    cluster.start("node-b");
    Flow held = cluster.apply(TestFlows.named("held").step("hold", "gate", "{}").build());
    UUID started = UUID.randomUUID();
    lateWatch.afterLiveNodesRead =
        () ->
            new RunWriter(cluster.stores.journal(), started, cluster.scheduler.now())
                .append(
                    started,
                    new RunCreated("held", held.hash(), json("{}"), null, null, null, null))
                .claim("node-a", cluster.leaseService.revision() + 1)
                .status(RunStatus.PENDING, RunStatus.RUNNING);

    cluster.await(cluster.node("node-b").claimPass());
    assertThat(cluster.node("node-b").engine().owns(started)).isFalse();
    assertThat(claims(started)).containsExactly("node-a");
  }
}

package io.baton.cluster;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.Orchestrator;
import io.baton.engine.testing.CuttableStores;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import io.baton.journal.StepCompleted;
import io.baton.lease.ConnectionState;
import io.baton.recovery.RecoveryConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Gray failure on simulated time: node-a keeps its lease but its store is cut off (node-b still
 * reaches it). After {@code storeOutageHandoff} node-a stands down: not ready, lease revoked, its
 * run adopted and finished by node-b with the step completed once; when its store answers again
 * node-a takes a fresh lease and is ready.
 */
class StoreOutageHandoffTest {
  private static final Duration HANDOFF = Duration.ofSeconds(5);

  private final CuttableStores cutA = new CuttableStores();
  private final TestCluster cluster =
      new TestCluster()
          .stores((node, shared) -> node.equals("node-a") ? cutA.wrap(shared) : shared)
          .recovery(
              RecoveryConfig.defaults()
                  .withCheckInterval(Duration.ofSeconds(1))
                  .withStoreOutageHandoff(HANDOFF));

  @BeforeEach
  void nodes() {
    cluster.start("node-a");
    cluster.apply(TestFlows.named("held").step("hold", "gate", "{}").build());
  }

  @AfterEach
  void close() {
    cluster.close();
  }

  @Test
  void a_node_cut_off_its_store_gives_its_runs_to_a_node_that_reaches_it_and_returns_later() {
    OrchestratorNode a = cluster.node("node-a");
    Orchestrator orchestrator = a.orchestrator();
    UUID runId =
        cluster.await(orchestrator.submitAsync("held", json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> cluster.capabilities.waiting("hold"));
    cluster.start("node-b");

    Instant cutAt = cluster.scheduler.now();
    cutA.cut();
    cluster.capabilities.open("hold", json("{\"done\": true}"));
    cluster.runUntil(() -> a.phase() == OrchestratorNode.Phase.STANDBY, Duration.ofMinutes(1));

    Duration toStandDown = Duration.between(cutAt, cluster.scheduler.now());
    assertThat(toStandDown).isGreaterThanOrEqualTo(HANDOFF).isLessThan(HANDOFF.multipliedBy(2));
    assertThat(a.isReady()).isFalse();
    cluster.runUntil(() -> a.leases().state() == ConnectionState.LOST, Duration.ofSeconds(1));
    assertThat(a.engine().activeCount()).isZero();

    // node-b adopts the run now, long before node-a's lease TTL, and finishes it
    cluster.runUntil(
        () -> {
          if (cluster.capabilities.waiting("hold")) {
            cluster.capabilities.open("hold", json("{\"done\": true}"));
          }
          return status(runId) == RunStatus.SUCCEEDED;
        },
        Duration.ofSeconds(5));
    assertThat(completions(runId, "hold")).isEqualTo(1);
    assertThat(cluster.stores.metadata().findRun(runId).orElseThrow().orchestratorId())
        .isEqualTo("node-b");

    // two TTLs on, node-a still waits for its store and holds no lease
    cluster.scheduler.advance(TestCluster.TTL.multipliedBy(2));
    assertThat(a.phase()).isEqualTo(OrchestratorNode.Phase.STANDBY);
    assertThat(a.leases().state()).isEqualTo(ConnectionState.LOST);

    cutA.heal();
    cluster.runUntil(() -> a.phase() == OrchestratorNode.Phase.READY, Duration.ofSeconds(5));
    cluster.runUntil(() -> a.leases().state() == ConnectionState.CONNECTED, Duration.ofSeconds(5));
    assertThat(a.isReady()).isTrue();
    UUID later =
        cluster.await(orchestrator.submitAsync("held", json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> cluster.capabilities.waiting("hold") || status(later).isTerminal());
    assertThat(a.engine().owns(later)).isTrue();
  }

  @Test
  void a_node_cut_off_its_store_and_etcd_stands_down_and_its_runs_move_when_its_lease_expires() {
    OrchestratorNode a = cluster.node("node-a");
    UUID runId =
        cluster.await(a.orchestrator().submitAsync("held", json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> cluster.capabilities.waiting("hold"));
    cluster.start("node-b");

    // node-a is partitioned from both: it cannot revoke its own lease, so the peers wait for it
    Instant cutAt = cluster.scheduler.now();
    cutA.cut();
    cluster.leaseService.setReachable("node-a", false);
    cluster.capabilities.open("hold", json("{\"done\": true}"));
    cluster.runUntil(() -> a.phase() == OrchestratorNode.Phase.STANDBY, Duration.ofMinutes(1));
    assertThat(a.isReady()).isFalse();
    assertThat(a.engine().activeCount()).isZero();
    // the revocation failed: the lease stands until its TTL runs out, so node-b waits
    cluster.scheduler.advance(Duration.ofMillis(500));
    assertThat(cluster.node("node-b").engine().owns(runId)).isFalse();
    assertThat(status(runId)).isEqualTo(RunStatus.RUNNING);
    cluster.runUntil(
        () -> {
          if (cluster.capabilities.waiting("hold")) {
            cluster.capabilities.open("hold", json("{\"done\": true}"));
          }
          return status(runId) == RunStatus.SUCCEEDED;
        },
        Duration.ofMinutes(1));
    // adopted when the lease expired: at least two thirds of a TTL after the cut (the last
    // renewal came at most a third of a TTL before it), at most a TTL and a check after it
    Duration toAdopted = Duration.between(cutAt, cluster.scheduler.now());
    assertThat(toAdopted)
        .isGreaterThanOrEqualTo(TestCluster.TTL.multipliedBy(2).dividedBy(3))
        .isLessThan(TestCluster.TTL.plusSeconds(3));
    assertThat(completions(runId, "hold")).isEqualTo(1);
    assertThat(cluster.stores.metadata().findRun(runId).orElseThrow().orchestratorId())
        .isEqualTo("node-b");

    cluster.leaseService.setReachable("node-a", true);
    cutA.heal();
    cluster.runUntil(() -> a.phase() == OrchestratorNode.Phase.READY, Duration.ofSeconds(10));
    cluster.runUntil(() -> a.leases().state() == ConnectionState.CONNECTED, Duration.ofSeconds(5));
    assertThat(a.isReady()).isTrue();
  }

  private RunStatus status(UUID runId) {
    return cluster.stores.metadata().findRun(runId).orElseThrow().status();
  }

  private long completions(UUID runId, String step) {
    List<JournalEntry> entries = cluster.stores.journal().readFrom(runId, 0, 10_000);
    return entries.stream()
        .filter(e -> e.event() instanceof StepCompleted done && done.step().equals(step))
        .count();
  }
}

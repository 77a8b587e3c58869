package io.baton.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.baton.cluster.OrchestratorNode;
import io.baton.engine.EngineConfig;
import io.baton.journal.ClaimReason;
import io.baton.journal.JournalCodec;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunStatus;
import io.baton.journal.StepCompleted;
import io.baton.lease.etcd.EtcdTestCluster;
import io.baton.node.testing.HoldCapability;
import io.baton.node.testing.RealNode;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.RunRecord;
import io.baton.store.postgres.testkit.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Proof 2 of recovery, on real PostgreSQL and real etcd: three orchestrators in one JVM. One
 * vanishes without releasing (its etcd client closed, so its lease expires); one shuts down
 * gracefully. Every run completes, every step is journaled as completed exactly once, the graceful
 * hand-off is adopted within a second and the expired lease within TTL plus one check.
 */
class RecoveryOnRealServicesTest {
  private static final Duration TTL = Duration.ofSeconds(2);
  private static final Duration CHECK = Duration.ofSeconds(1);
  private static final String FLOW =
      """
      name: held
      steps:
        - name: first
          capability: noop
          params: {n: "{{ input.n }}"}
        - name: hold
          capability: hold
        - name: last
          capability: noop
          params: {held: "{{ steps.hold.output.key }}"}
      """;

  private static EtcdTestCluster etcd;
  private static TestDatabase database;
  private final HoldCapability hold = new HoldCapability();
  private final List<RealNode> nodes = new ArrayList<>();

  @BeforeAll
  static void services() {
    etcd = EtcdTestCluster.start(1);
    database = TestDatabase.create("recovery");
  }

  @AfterAll
  static void stopServices() {
    database.close();
    etcd.close();
  }

  @AfterEach
  void stopNodes() throws Exception {
    hold.releaseAll();
    for (RealNode node : nodes) {
      node.close();
    }
  }

  private OrchestratorNode start(String nodeId) throws Exception {
    RealNode node =
        RealNode.builder(nodeId)
            .store(database.config().build())
            .etcd(etcd.endpoints(), "recovery-it", TTL)
            .engine(EngineConfig.defaults(nodeId).withDrainTimeout(Duration.ofMillis(300)))
            .recovery(RecoveryConfig.defaults().withCheckInterval(CHECK))
            .capability(hold)
            .groupCommit()
            .start();
    nodes.add(node);
    return node.node();
  }

  private List<UUID> submit(OrchestratorNode node, int count) {
    List<UUID> runs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      var input = JournalCodec.mapper().createObjectNode().put("n", i);
      runs.add(node.orchestrator().submit("held", input, null).run().runId());
    }
    return runs;
  }

  @Test
  void every_run_survives_a_vanished_node_and_a_graceful_shutdown_with_each_step_completed_once()
      throws Exception {
    OrchestratorNode vanishing = start("node-a");
    OrchestratorNode leaving = start("node-b");
    OrchestratorNode staying = start("node-c");
    vanishing.orchestrator().applyFlow(FLOW, "held.yaml");
    List<UUID> ofA = submit(vanishing, 20);
    List<UUID> ofB = submit(leaving, 20);
    await().atMost(Duration.ofSeconds(30)).until(() -> hold.heldCount() == 40);

    Instant vanishedAt = Instant.now();
    vanishing.halt().get(10, TimeUnit.SECONDS);
    await().atMost(TTL.plus(CHECK).multipliedBy(5)).until(() -> ownedBy(ofA, "node-a") == 0);

    Instant releasedAt = Instant.now();
    leaving.drain().get(30, TimeUnit.SECONDS);
    await().atMost(Duration.ofSeconds(10)).until(() -> ownedBy(ofB, "node-b") == 0);

    hold.releaseAll();
    List<UUID> all = new ArrayList<>(ofA);
    all.addAll(ofB);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> all.stream().allMatch(id -> status(staying, id).isTerminal()));

    for (UUID run : all) {
      assertThat(status(staying, run)).isEqualTo(RunStatus.SUCCEEDED);
      assertCompletedOnce(staying, run);
    }
    Duration orphanAdoption =
        lastClaim(staying, ofA, ClaimReason.ORPHAN).minus(toMillis(vanishedAt));
    Duration handoffAdoption =
        lastClaim(staying, ofB, ClaimReason.HANDOFF).minus(toMillis(releasedAt));
    System.out.printf(
        "adoption after lease expiry: last run %d ms after the node vanished (TTL %s, check %s)%n",
        orphanAdoption.toMillis(), TTL, CHECK);
    System.out.printf(
        "adoption after graceful shutdown: last run %d ms after the drain began%n",
        handoffAdoption.toMillis());
    assertThat(orphanAdoption).isLessThanOrEqualTo(TTL.plus(CHECK).plusMillis(500));
    assertThat(handoffAdoption).isLessThan(Duration.ofSeconds(1).plus(Duration.ofMillis(300)));
  }

  private static Duration toMillis(Instant instant) {
    return Duration.ofMillis(instant.toEpochMilli());
  }

  private static RunStatus status(OrchestratorNode node, UUID run) {
    return node.orchestrator().find(run).status();
  }

  private long ownedBy(List<UUID> runs, String nodeId) {
    OrchestratorNode any = nodes.get(nodes.size() - 1).node();
    return runs.stream()
        .map(id -> any.orchestrator().find(id))
        .map(RunRecord::orchestratorId)
        .filter(nodeId::equals)
        .count();
  }

  /** The latest claim with this reason over the runs, as an offset from the epoch. */
  private static Duration lastClaim(OrchestratorNode node, List<UUID> runs, ClaimReason reason) {
    Instant last = Instant.EPOCH;
    for (UUID run : runs) {
      for (JournalEntry entry : node.orchestrator().journal(run)) {
        if (entry.event() instanceof RunClaimed claim
            && claim.reason() == reason
            && entry.timestamp().isAfter(last)) {
          last = entry.timestamp();
        }
      }
    }
    assertThat(last).as("some run was claimed for %s", reason).isAfter(Instant.EPOCH);
    return Duration.ofMillis(last.toEpochMilli());
  }

  private static void assertCompletedOnce(OrchestratorNode node, UUID run) {
    Set<String> completed = new HashSet<>();
    for (JournalEntry entry : node.orchestrator().journal(run)) {
      if (entry.event() instanceof StepCompleted step) {
        assertThat(completed.add(step.step()))
            .as("run %s step %s completed twice", run, step.step())
            .isTrue();
      }
    }
    assertThat(completed).containsExactlyInAnyOrder("first", "hold", "last");
  }
}

package io.baton.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.cluster.OrchestratorNode;
import io.baton.journal.JournalCodec;
import io.baton.journal.RunStatus;
import io.baton.lease.ConnectionState;
import io.baton.lease.etcd.EtcdTestCluster;
import io.baton.lease.etcd.LoopbackProxy;
import io.baton.node.testing.HoldCapability;
import io.baton.node.testing.RealNode;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.postgres.PostgresStoreConfig;
import io.baton.store.postgres.testkit.TestDatabase;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Gray failures on real PostgreSQL and etcd, each cut by a proxy in front of one node only. With
 * its database connections cut, node-a keeps its etcd lease but stands down after {@code
 * storeOutageHandoff}: node-b adopts its runs and finishes them, each step completed once; node-a
 * comes back when the database answers. With its etcd connections cut, node-a is self-fenced
 * (SUSPENDED, then LOST at its TTL) and node-b adopts its runs the same way.
 */
class GrayFailureTest {
  private static final Duration TTL = Duration.ofSeconds(4);
  private static final Duration HANDOFF = Duration.ofSeconds(3);
  private static final String FLOW =
      """
      name: held
      steps:
        - name: first
          capability: noop
          params: {n: "{{ input.n }}"}
        - name: hold
          capability: hold
        - name: after
          capability: noop
      """;

  private final List<AutoCloseable> closing = new ArrayList<>();

  @AfterEach
  void close() {
    for (AutoCloseable resource : closing) {
      try {
        resource.close();
      } catch (Exception e) {
        System.err.println("closing: " + e);
      }
    }
  }

  private <T extends AutoCloseable> T closeLater(T resource) {
    closing.add(0, resource);
    return resource;
  }

  @Test
  void a_node_cut_off_its_database_or_etcd_gives_its_runs_to_a_node_that_reaches_both()
      throws Exception {
    EtcdTestCluster etcd = closeLater(EtcdTestCluster.start(1));
    TestDatabase db = closeLater(TestDatabase.create("gray"));
    URI pg = URI.create(db.jdbcUrl().substring("jdbc:".length()));
    LoopbackProxy dbProxy = closeLater(new LoopbackProxy(pg));
    LoopbackProxy etcdProxy = closeLater(new LoopbackProxy(etcd.endpoints().get(0)));
    String cluster = "gray-" + System.nanoTime();
    HoldCapability hold = new HoldCapability();

    String proxiedUrl = "jdbc:postgresql://127.0.0.1:" + dbProxy.uri().getPort() + pg.getPath();
    OrchestratorNode a = node("node-a", proxiedUrl, db, etcdProxy.uri(), cluster, hold).node();
    RealNode realB = node("node-b", db.jdbcUrl(), db, etcd.endpoints().get(0), cluster, hold);
    OrchestratorNode b = realB.node();
    a.orchestrator().applyFlow(FLOW, "held.yaml");

    // 1. the database cut for node-a only: it stands down, node-b adopts
    List<UUID> first = submit(a, 5, hold);
    dbProxy.cut();
    await()
        .atMost(HANDOFF.plus(Duration.ofSeconds(20)))
        .until(() -> a.phase() == OrchestratorNode.Phase.STANDBY);
    await().atMost(Duration.ofSeconds(5)).until(() -> a.leases().state() == ConnectionState.LOST);
    awaitAdoptedBy(b, first);
    hold.releaseAll();
    awaitSucceeded(b, first);
    dbProxy.restore();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                a.phase() == OrchestratorNode.Phase.READY
                    && a.leases().state() == ConnectionState.CONNECTED);

    // 2. etcd cut for node-a only: its lease is lost (self-fenced), node-b adopts
    hold.rearm();
    List<UUID> second = submit(a, 5, hold);
    etcdProxy.cut();
    await()
        .atMost(TTL.plus(Duration.ofSeconds(20)))
        .until(() -> a.leases().state() == ConnectionState.LOST);
    awaitAdoptedBy(b, second);
    hold.releaseAll();
    awaitSucceeded(b, second);
    etcdProxy.restore();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> a.leases().state() == ConnectionState.CONNECTED);

    for (UUID run : concat(first, second)) {
      assertThat(realB.completions(run, "hold")).as("run %s", run).isEqualTo(1);
      assertThat(realB.completions(run, "after")).as("run %s", run).isEqualTo(1);
    }
    assertThat(
            b.orchestrator().get(first.get(0)).ownership().stream()
                .map(claim -> claim.node())
                .toList())
        .containsSubsequence("node-a", "node-b");
  }

  private RealNode node(
      String nodeId, String jdbcUrl, TestDatabase db, URI etcd, String cluster, HoldCapability hold)
      throws Exception {
    PostgresStoreConfig store =
        PostgresStoreConfig.builder(jdbcUrl)
            .user(db.server().user())
            .password(db.server().password())
            .maxPoolSize(4)
            .connectionTimeout(Duration.ofSeconds(1))
            .transientRetryWindow(Duration.ofSeconds(2))
            .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(500))
            .build();
    RealNode node =
        RealNode.builder(nodeId)
            .store(store)
            .etcd(List.of(etcd), cluster, TTL)
            .recovery(
                RecoveryConfig.defaults()
                    .withCheckInterval(Duration.ofSeconds(1))
                    .withStoreOutageHandoff(HANDOFF))
            .capability(hold)
            .start();
    return closeLater(node);
  }

  private static List<UUID> submit(OrchestratorNode node, int count, HoldCapability hold) {
    int before = hold.invoked();
    List<UUID> runs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ObjectNode input = JournalCodec.mapper().createObjectNode().put("n", i);
      runs.add(node.orchestrator().submit("held", input, null).run().runId());
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> hold.invoked() >= before + count);
    return runs;
  }

  private static void awaitAdoptedBy(OrchestratorNode node, List<UUID> runs) {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> runs.stream().allMatch(run -> node.engine().owns(run)));
  }

  private static void awaitSucceeded(OrchestratorNode node, List<UUID> runs) {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                runs.stream()
                    .allMatch(
                        run -> node.orchestrator().find(run).status() == RunStatus.SUCCEEDED));
  }

  private static List<UUID> concat(List<UUID> a, List<UUID> b) {
    List<UUID> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}

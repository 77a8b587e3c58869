package io.baton.node;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.baton.cluster.OrchestratorNode;
import io.baton.engine.StartupRecoveryFailedException;
import io.baton.lease.ConnectionState;
import io.baton.lease.NodeIdInUseException;
import io.baton.lease.etcd.EtcdTestCluster;
import io.baton.node.config.ConfigLoader;
import io.baton.node.config.NodeConfig;
import io.baton.store.Stores;
import io.baton.store.postgres.PostgresStores;
import io.baton.store.postgres.testkit.TestDatabase;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.GetOption;
import java.net.URI;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A dead etcd at startup makes the node wait and retry, not fail; a startup recovery that fails
 * makes it give up its lease and fail, for its process to exit and be restarted; a node id another
 * live node holds makes it fail, not wait.
 */
class NodeRuntimeStartupTest {
  private static NodeConfig config(EtcdTestCluster etcd, String nodeId, String cluster) {
    String endpoints =
        etcd.endpoints().stream().map(Object::toString).collect(Collectors.joining(","));
    return NodeConfig.from(
        ConfigLoader.load(
            null,
            Map.of(),
            Map.of(
                "auth.mode",
                "none",
                "nodeId",
                nodeId,
                "store.type",
                "memory",
                "lease.type",
                "etcd",
                "lease.endpoints",
                endpoints,
                "lease.ttl",
                "2s",
                "cluster",
                cluster),
            Map.of()));
  }

  @Test
  void a_node_started_while_etcd_is_down_waits_and_becomes_ready_when_etcd_returns() {
    try (EtcdTestCluster etcd = EtcdTestCluster.start(1)) {
      NodeConfig config = config(etcd, "waiting-node", "startup-" + System.nanoTime());
      etcd.stopAll();
      NodeRuntime runtime = NodeRuntime.create(config, "test");
      try {
        CompletableFuture<Void> started =
            CompletableFuture.runAsync(() -> runtime.start("127.0.0.1:0"));
        await()
            .during(Duration.ofSeconds(3))
            .atMost(Duration.ofSeconds(5))
            .until(() -> !started.isDone());
        assertThat(runtime.node().isReady()).isFalse();

        etcd.startAll();
        await().atMost(Duration.ofSeconds(60)).until(started::isDone);
        assertThat(started).isCompleted();
        assertThat(runtime.node().isReady()).isTrue();
      } finally {
        runtime.close();
      }
    }
  }

  /**
   * A role that may connect and migrate but not read {@code runs}: the node opens its store, grants
   * its lease, and its startup recovery fails for good.
   */
  @Test
  void a_node_whose_startup_recovery_fails_releases_its_lease_and_does_not_retry()
      throws Exception {
    String role = "baton_unrecovered_" + System.nanoTime();
    try (EtcdTestCluster etcd = EtcdTestCluster.start(1);
        TestDatabase db = TestDatabase.create("unrecovered")) {
      migrate(db);
      try (Connection admin = db.connect();
          Statement sql = admin.createStatement()) {
        sql.execute("CREATE ROLE " + role + " LOGIN PASSWORD 'unrecovered'");
        sql.execute("GRANT ALL ON ALL TABLES IN SCHEMA public TO " + role);
        sql.execute("GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO " + role);
        sql.execute("REVOKE SELECT ON runs FROM " + role);
      }
      String cluster = "unrecovered-" + System.nanoTime();
      NodeConfig config =
          NodeConfig.from(
              ConfigLoader.load(
                  null,
                  Map.of(),
                  Map.ofEntries(
                      Map.entry("nodeId", "unrecovered-node"),
                      Map.entry("auth.mode", "none"),
                      Map.entry("store.type", "postgres"),
                      Map.entry("store.url", db.jdbcUrl()),
                      Map.entry("store.user", role),
                      Map.entry("store.password", "unrecovered"),
                      Map.entry("lease.type", "etcd"),
                      Map.entry("lease.endpoints", endpoints(etcd)),
                      Map.entry("lease.ttl", "5s"),
                      Map.entry("cluster", cluster)),
                  Map.of()));
      NodeRuntime runtime = NodeRuntime.create(config, "test");
      try {
        assertThatThrownBy(() -> runtime.start("127.0.0.1:0"))
            .isInstanceOf(StartupRecoveryFailedException.class)
            .hasMessageContaining("unrecovered-node could not recover its runs at startup");
        assertThat(runtime.node().phase()).isEqualTo(OrchestratorNode.Phase.FAILED);
        assertThat(runtime.node().leases().state()).isEqualTo(ConnectionState.LOST);
        assertThat(nodeKeys(etcd, cluster)).as("its node key is gone with its lease").isZero();
      } finally {
        runtime.close();
        try (Connection admin = db.connect();
            Statement sql = admin.createStatement()) {
          sql.execute("DROP OWNED BY " + role);
          sql.execute("DROP ROLE " + role);
        }
      }
    }
  }

  private static void migrate(TestDatabase db) throws Exception {
    try (Stores stores = PostgresStores.create(db.config().build(), Clock.systemUTC())) {
      stores.metadata().ping();
    }
  }

  private static long nodeKeys(EtcdTestCluster etcd, String cluster) throws Exception {
    try (Client client = Client.builder().endpoints(etcd.endpoints().toArray(URI[]::new)).build()) {
      ByteSequence prefix = ByteSequence.from("/baton/" + cluster + "/nodes/", UTF_8);
      return client
          .getKVClient()
          .get(prefix, GetOption.builder().isPrefix(true).withCountOnly(true).build())
          .get()
          .getCount();
    }
  }

  private static String endpoints(EtcdTestCluster etcd) {
    return etcd.endpoints().stream().map(Object::toString).collect(Collectors.joining(","));
  }

  @Test
  void a_node_whose_id_a_live_node_holds_fails_to_start_instead_of_waiting() {
    try (EtcdTestCluster etcd = EtcdTestCluster.start(1)) {
      String cluster = "duplicate-" + System.nanoTime();
      NodeRuntime first = NodeRuntime.create(config(etcd, "twin", cluster), "test");
      NodeRuntime second = NodeRuntime.create(config(etcd, "twin", cluster), "test");
      try {
        first.start("127.0.0.1:7001");
        CompletableFuture<Void> started =
            CompletableFuture.runAsync(() -> second.start("127.0.0.1:7002"));

        await().atMost(Duration.ofSeconds(15)).until(started::isDone);
        assertThat(started)
            .failsWithin(Duration.ZERO)
            .withThrowableOfType(ExecutionException.class)
            .havingCause()
            .isInstanceOfSatisfying(
                NodeIdInUseException.class,
                inUse -> assertThat(inUse.otherAddress()).isEqualTo("127.0.0.1:7001"));
        assertThat(first.node().isReady()).isTrue();
      } finally {
        second.close();
        first.close();
      }
    }
  }
}

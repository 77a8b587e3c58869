package io.baton.node.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.lease.etcd.EtcdTestCluster;
import io.baton.store.postgres.testkit.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Two real {@code baton node} processes on real PostgreSQL and etcd, started with the same node id:
 * the second refuses to start, exits 6 and names the id and the first one's address; the first runs
 * on undisturbed.
 */
class DuplicateNodeIdIT {
  private static Map<String, String> nodeEnv(
      String nodeId, int port, TestDatabase db, EtcdTestCluster etcd, String cluster) {
    Map<String, String> env = ProcessTestSupport.cleanEnv();
    env.put("BATON_NODE_ID", nodeId);
    env.put("BATON_CLUSTER", cluster);
    env.put("BATON_HTTP_PORT", String.valueOf(port));
    env.put("BATON_AUTH_MODE", "none");
    env.put("BATON_STORE_TYPE", "postgres");
    env.put("BATON_STORE_URL", db.jdbcUrl());
    env.put("BATON_STORE_USER", db.server().user());
    env.put("BATON_STORE_PASSWORD", db.server().password());
    env.put("BATON_LEASE_TYPE", "etcd");
    env.put(
        "BATON_LEASE_ENDPOINTS",
        etcd.endpoints().stream().map(Object::toString).collect(Collectors.joining(",")));
    env.put("BATON_LEASE_TTL", "5s");
    return env;
  }

  @Test
  void a_second_node_with_the_same_id_exits_non_zero_naming_the_id_and_the_first_nodes_address()
      throws Exception {
    Path dir = ProcessTestSupport.workDir(Map.of());
    String cluster = "duplicate-" + System.nanoTime();
    try (EtcdTestCluster etcd = EtcdTestCluster.start(1);
        TestDatabase db = TestDatabase.create("duplicate")) {
      int portA = ProcessTestSupport.freePort();
      int portB = ProcessTestSupport.freePort();
      String apiA = "http://127.0.0.1:" + portA;
      try (BatonProcess first =
          BatonProcess.start(dir, nodeEnv("node-a", portA, db, etcd, cluster), "node")) {
        first.awaitReady(apiA, Duration.ofMinutes(3));

        try (BatonProcess second =
            BatonProcess.start(dir, nodeEnv("node-a", portB, db, etcd, cluster), "node")) {
          assertThat(second.awaitExit(Duration.ofSeconds(90))).as(second.output()).isEqualTo(6);
          assertThat(second.output())
              .contains(
                  "baton: node id node-a is already in use by the process at 127.0.0.1:" + portA);
        }

        assertThat(first.isAlive()).isTrue();
        assertThat(BatonProcess.status(apiA + "/health/ready")).isEqualTo(200);
        assertThat(ProcessTestSupport.get(apiA + "/api/cluster").toString())
            .contains("127.0.0.1:" + portA)
            .doesNotContain("127.0.0.1:" + portB);
        first.terminate();
        assertThat(first.awaitExit(Duration.ofSeconds(60))).as(first.output()).isZero();
      }
    }
  }
}

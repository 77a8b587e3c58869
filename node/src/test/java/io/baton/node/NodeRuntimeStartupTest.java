package io.baton.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.baton.lease.etcd.EtcdTestCluster;
import io.baton.node.config.ConfigLoader;
import io.baton.node.config.NodeConfig;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A dead etcd at startup makes the node wait and retry, not fail. */
class NodeRuntimeStartupTest {
  @Test
  void a_node_started_while_etcd_is_down_waits_and_becomes_ready_when_etcd_returns() {
    try (EtcdTestCluster etcd = EtcdTestCluster.start(1)) {
      String endpoints =
          etcd.endpoints().stream().map(Object::toString).collect(Collectors.joining(","));
      NodeConfig config =
          NodeConfig.from(
              ConfigLoader.load(
                  null,
                  Map.of(),
                  Map.of(
                      "nodeId",
                      "waiting-node",
                      "store.type",
                      "memory",
                      "lease.type",
                      "etcd",
                      "lease.endpoints",
                      endpoints,
                      "lease.ttl",
                      "2s",
                      "cluster",
                      "startup-" + System.nanoTime()),
                  Map.of()));
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
}

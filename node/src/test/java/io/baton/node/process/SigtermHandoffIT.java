package io.baton.node.process;

import static io.baton.node.process.ProcessTestSupport.applyFlow;
import static io.baton.node.process.ProcessTestSupport.clusterNodeEnv;
import static io.baton.node.process.ProcessTestSupport.completions;
import static io.baton.node.process.ProcessTestSupport.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.lease.etcd.EtcdTestCluster;
import io.baton.store.postgres.testkit.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Two real {@code baton node} processes on real PostgreSQL and etcd; steps call a local HTTP server
 * that holds them. SIGTERM to one: it exits 0, the other adopts its runs within a second of the
 * release, and every run completes with each step completed once.
 */
class SigtermHandoffIT {
  private static final Duration DRAIN = Duration.ofSeconds(1);

  @Test
  void a_node_stopped_with_sigterm_hands_every_run_to_the_other_within_a_second() throws Exception {
    Path dir = ProcessTestSupport.workDir(Map.of());
    String cluster = "handoff-" + System.nanoTime();
    try (EtcdTestCluster etcd = EtcdTestCluster.start(1);
        TestDatabase db = TestDatabase.create("handoff");
        HeldEndpoint endpoint = new HeldEndpoint(1500)) {
      int portA = ProcessTestSupport.freePort();
      int portB = ProcessTestSupport.freePort();
      String apiA = "http://127.0.0.1:" + portA;
      String apiB = "http://127.0.0.1:" + portB;
      try (BatonProcess a =
              BatonProcess.start(
                  dir, clusterNodeEnv("node-a", portA, db, etcd, cluster, DRAIN), "node");
          BatonProcess b =
              BatonProcess.start(
                  dir, clusterNodeEnv("node-b", portB, db, etcd, cluster, DRAIN), "node")) {
        a.awaitReady(apiA, Duration.ofMinutes(3));
        b.awaitReady(apiB, Duration.ofMinutes(3));
        applyFlow(apiA, ProcessTestSupport.HELD_FLOW);
        List<String> runs = ProcessTestSupport.submitHeld(apiA, endpoint.url(), 20);
        await().atMost(Duration.ofSeconds(30)).until(() -> endpoint.waiting() >= 10);

        Instant terminatedAt = Instant.now();
        a.terminate();
        assertThat(a.awaitExit(Duration.ofSeconds(60))).as(a.output()).isZero();

        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> allSucceeded(apiB, runs));
        Instant lastHandoff = Instant.EPOCH;
        int handedOff = 0;
        for (String run : runs) {
          assertThat(completions(apiB, run, "call")).as("run %s", run).isEqualTo(1);
          assertThat(completions(apiB, run, "after")).as("run %s", run).isEqualTo(1);
          for (JsonNode claim : get(apiB + "/api/runs/" + run).path("ownership")) {
            if (claim.path("reason").asText().equals("HANDOFF")) {
              handedOff++;
              Instant at = Instant.parse(claim.path("at").asText());
              lastHandoff = at.isAfter(lastHandoff) ? at : lastHandoff;
            }
          }
        }
        Duration afterRelease = Duration.between(terminatedAt.plus(DRAIN), lastHandoff);
        System.out.printf(
            "SIGTERM hand-off: %d of %d runs handed off; the last adopted %d ms after"
                + " the drain deadline (drain %s)%n",
            handedOff, runs.size(), afterRelease.toMillis(), DRAIN);
        assertThat(handedOff).isPositive();
        assertThat(afterRelease).isLessThan(Duration.ofSeconds(1));
      }
    }
  }

  private static boolean allSucceeded(String api, List<String> runs) throws Exception {
    Map<String, Integer> statuses = new HashMap<>();
    for (String run : runs) {
      statuses.merge(get(api + "/api/runs/" + run).path("status").asText(), 1, Integer::sum);
    }
    return statuses.getOrDefault("SUCCEEDED", 0) == runs.size();
  }
}

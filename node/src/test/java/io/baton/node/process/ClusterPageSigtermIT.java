package io.baton.node.process;

import static io.baton.node.process.ProcessTestSupport.applyFlow;
import static io.baton.node.process.ProcessTestSupport.clusterNodeEnv;
import static io.baton.node.process.ProcessTestSupport.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.lease.etcd.EtcdTestCluster;
import io.baton.node.http.HeadlessChromium;
import io.baton.store.postgres.testkit.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

/**
 * The dashboard's window on a failure, against two real {@code baton node} processes on real
 * PostgreSQL and etcd, in real headless Chromium: the cluster page shows both nodes with their
 * leases; the node that holds a run is stopped with SIGTERM; the run's page on the other node then
 * shows its ownership history with both nodes named and the hand-off, and the cluster page no
 * longer lists the stopped node as alive.
 */
class ClusterPageSigtermIT {
  private static final Duration DRAIN = Duration.ofSeconds(1);
  private static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void after_sigterm_the_dashboard_shows_the_hand_off_with_both_nodes_named() throws Exception {
    Path dir = ProcessTestSupport.workDir(Map.of());
    String cluster = "window-" + System.nanoTime();
    try (EtcdTestCluster etcd = EtcdTestCluster.start(1);
        TestDatabase db = TestDatabase.create("window");
        HeldEndpoint endpoint = new HeldEndpoint(-1)) {
      int portA = ProcessTestSupport.freePort();
      int portB = ProcessTestSupport.freePort();
      String apiA = "http://127.0.0.1:" + portA;
      String apiB = "http://127.0.0.1:" + portB;
      try (BatonProcess a =
              BatonProcess.start(
                  dir, clusterNodeEnv("node-a", portA, db, etcd, cluster, DRAIN), "node");
          BatonProcess b =
              BatonProcess.start(
                  dir, clusterNodeEnv("node-b", portB, db, etcd, cluster, DRAIN), "node");
          HeadlessChromium chromium = HeadlessChromium.start(WAIT)) {
        a.awaitReady(apiA, Duration.ofMinutes(3));
        b.awaitReady(apiB, Duration.ofMinutes(3));
        applyFlow(apiA, ProcessTestSupport.HELD_FLOW);
        List<String> runs = ProcessTestSupport.submitHeld(apiA, endpoint.url(), 3);
        await().atMost(WAIT).until(() -> endpoint.waiting() >= runs.size());
        String runId = runs.get(0);
        String owner = lastClaim(apiB, runId).path("node").asText();
        assertThat(owner).isIn("node-a", "node-b");
        BatonProcess stopped = owner.equals("node-a") ? a : b;
        String survivor = owner.equals("node-a") ? "node-b" : "node-a";
        String survivorApi = owner.equals("node-a") ? apiB : apiA;

        WebDriver browser = chromium.driver();
        browser.get(survivorApi + "/#/cluster");
        for (String nodeId : List.of("node-a", "node-b")) {
          chromium.await(By.cssSelector("#nodes tr[data-node='" + nodeId + "']"));
          String leaseEnds =
              browser
                  .findElement(By.cssSelector("#nodes tr[data-node='" + nodeId + "'] .lease-ends"))
                  .getText();
          assertThat(leaseEnds).as(nodeId).matches("in \\d+\\.\\d s");
        }

        stopped.terminate();
        assertThat(stopped.awaitExit(WAIT)).as(stopped.output()).isZero();
        await()
            .atMost(WAIT)
            .pollInterval(Duration.ofMillis(200))
            .until(() -> lastClaim(survivorApi, runId).path("node").asText().equals(survivor));
        JsonNode handOff = lastClaim(survivorApi, runId);
        assertThat(handOff.path("reason").asText()).isEqualTo("HANDOFF");
        assertThat(handOff.path("previousNode").asText()).isEqualTo(owner);

        browser.get(survivorApi + "/#/run/" + runId);
        chromium
            .waiting()
            .until(d -> d.findElements(By.cssSelector("#ownership tbody tr")).size() >= 2);
        String history = browser.findElement(By.id("ownership")).getText();
        assertThat(history).contains(owner).contains(survivor).contains("HANDOFF");

        browser.get(survivorApi + "/#/cluster");
        chromium.await(By.cssSelector("#nodes tr[data-node='" + survivor + "']"));
        chromium
            .waiting()
            .until(
                d ->
                    d.findElements(By.cssSelector("#nodes tr[data-node='" + owner + "']")).stream()
                        .noneMatch(row -> row.getText().contains("ALIVE")));

        endpoint.release();
        await()
            .atMost(WAIT)
            .until(
                () -> get(survivorApi + "/api/v1/runs/" + runId).path("status").asText(),
                status -> status.equals("SUCCEEDED"));
      }
    }
  }

  private static JsonNode lastClaim(String api, String runId) throws Exception {
    JsonNode ownership = get(api + "/api/v1/runs/" + runId).path("ownership");
    return ownership.path(ownership.size() - 1);
  }
}

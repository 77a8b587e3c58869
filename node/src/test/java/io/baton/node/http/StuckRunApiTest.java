package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.engine.EngineConfig;
import io.baton.recovery.RecoveryConfig;
import io.baton.testkit.SettableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A RUNNING run whose owner left is {@code stuck} only once it has not changed for {@code
 * runs.stuckAfter} (one minute by default), as the API's clock tells: in its derived state and in
 * the {@code state=stuck} filter alike. Recovery is off on every node, so nobody adopts the run.
 */
class StuckRunApiTest extends ApiTestBase {
  private final SettableClock apiClock = new SettableClock(Instant.now());

  @Override
  protected Clock apiClock(Built built) {
    return apiClock;
  }

  @Override
  protected NodeUnderTest createNode(NodeSpec spec) throws Exception {
    return super.createNode(
        new NodeSpec(
            spec.nodeId(),
            spec.scheduler(),
            spec.metrics(),
            spec.capabilities(),
            EngineConfig.defaults(spec.nodeId()).withDrainTimeout(Duration.ofMillis(200)),
            RecoveryConfig.defaults().withEnabled(false)));
  }

  @Test
  void a_run_whose_owner_left_is_stuck_only_after_the_threshold() throws Exception {
    TestNode leaving = startNode(nodeId("leaving"));
    String flow = uniqueName("held");
    applyFlow(TestFlows.held(flow));
    ApiCalls leavingCalls = leaving.calls();
    Reply submitted =
        leavingCalls.post("/api/v1/runs", "{\"flow\": \"" + flow + "\", \"input\": {}}");
    assertThat(submitted.status()).as("%s", submitted).isEqualTo(201);
    UUID runId = UUID.fromString(submitted.json().get("id").asText());
    await().atMost(TIMEOUT).until(() -> steps.holding(runId));
    assertThat(run(runId).get("orchestratorId").asText()).isEqualTo(leaving.nodeId());

    leaving.close();
    await()
        .atMost(TIMEOUT)
        .untilAsserted(() -> assertThat(liveNodes()).doesNotContain(leaving.nodeId()));
    assertThat(status(runId)).isEqualTo("RUNNING");

    apiClock.set(Instant.now());
    String stuckList = "/api/v1/runs?state=stuck&flow=" + flow;
    assertThat(run(runId).path("state").asText()).as("owner gone just now").isNotEqualTo("stuck");
    assertThat(ids(http.get(stuckList).json())).isEmpty();
    assertThat(listedState(runId, flow)).isNotEqualTo("stuck");

    apiClock.advance(HttpApi.DEFAULT_STUCK_AFTER.plusSeconds(1));
    assertThat(run(runId).get("state").asText()).isEqualTo("stuck");
    assertThat(ids(http.get(stuckList).json())).containsExactly(runId.toString());
    assertThat(listedState(runId, flow)).isEqualTo("stuck");
  }

  private List<String> liveNodes() {
    List<String> nodes = new ArrayList<>();
    for (JsonNode node : http.get("/api/v1/cluster").json().path("nodes")) {
      if (!node.path("leaseState").asText().equals("GONE")) {
        nodes.add(node.path("id").asText());
      }
    }
    return nodes;
  }

  private String listedState(UUID runId, String flow) {
    JsonNode listed = http.get("/api/v1/runs?flow=" + flow).json().get("runs").get(0);
    assertThat(listed.get("id").asText()).isEqualTo(runId.toString());
    return listed.path("state").asText();
  }

  private static List<String> ids(JsonNode page) {
    List<String> ids = new ArrayList<>();
    page.get("runs").forEach(run -> ids.add(run.get("id").asText()));
    return ids;
  }
}

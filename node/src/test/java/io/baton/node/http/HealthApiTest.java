package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.engine.StartupRecoveryFailedException;
import io.baton.node.metrics.PrometheusText;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Health, readiness and metrics, and the protocol errors every route shares: unknown routes, wrong
 * methods, oversized bodies and store outages.
 */
public class HealthApiTest extends ApiTestBase {

  @Test
  void liveness_and_readiness_answer_200_while_the_node_serves() {
    Reply live = http.get("/health/live");
    Reply ready = http.get("/health/ready");

    assertThat(live.status()).isEqualTo(200);
    assertThat(live.json().get("status").asText()).isEqualTo("UP");
    assertThat(ready.status()).isEqualTo(200);
    assertThat(ready.json().get("status").asText()).isEqualTo("READY");
    assertThat(ready.json().get("reasons")).isEmpty();
  }

  @Test
  void readiness_answers_503_with_the_reason_once_the_node_drains() throws Exception {
    TestNode draining = startNode(nodeId("drained"));
    assertThat(draining.calls().get("/health/ready").status()).isEqualTo(200);

    draining.node().drain().get();

    Reply ready = draining.calls().get("/health/ready");
    assertThat(ready.status()).isEqualTo(503);
    assertThat(ready.json().get("status").asText()).isEqualTo("NOT_READY");
    assertThat(ready.json().get("reasons").get(0).asText())
        .isEqualTo("node " + draining.nodeId() + " is STOPPED");
    assertThat(draining.calls().get("/health/live").status()).isEqualTo(200);
  }

  @Test
  void readiness_turns_false_at_once_when_shutdown_begins() throws Exception {
    TestNode stopping = startNode(nodeId("stopping"));

    stopping.readiness().shuttingDown();

    Reply ready = stopping.calls().get("/health/ready");
    assertThat(ready.status()).isEqualTo(503);
    assertThat(ready.json().get("reasons").get(0).asText())
        .isEqualTo("node " + stopping.nodeId() + " is shutting down");
  }

  @Test
  void a_store_outage_answers_503_and_turns_readiness_false() {
    NodeUnderTest.StoreOutage outage = node.storeOutage();
    assumeTrue(outage != null, "the backend cannot cut its store off");
    outage.down(true);
    try {
      JsonNode problem = assertProblem(http.get("/api/runs"), 503, "unavailable");
      assertThat(problem.get("detail").asText()).contains("does not answer");
      assertThat(http.get("/api/runs").headers().firstValue("Retry-After")).hasValue("1");
      Reply ready = http.get("/health/ready");
      assertThat(ready.status()).isEqualTo(503);
      assertThat(ready.json().get("reasons").toString()).contains("store does not answer");
    } finally {
      outage.down(false);
    }
    assertThat(http.get("/health/ready").status()).isEqualTo(200);
  }

  @Test
  void liveness_answers_503_with_the_reason_once_startup_recovery_failed() throws Exception {
    Built built = buildNode(nodeId("unrecovered"));
    NodeUnderTest.StoreOutage outage = built.node().storeOutage();
    assumeTrue(outage != null, "the backend cannot cut its store off");
    outage.down(true);
    try {
      assertThatThrownBy(() -> built.node().node().start().get())
          .hasCauseInstanceOf(StartupRecoveryFailedException.class);
    } finally {
      outage.down(false);
    }

    Reply live = serve(built).calls().get("/health/live");
    assertThat(live.status()).isEqualTo(503);
    assertThat(live.json().get("status").asText()).isEqualTo("DOWN");
    assertThat(live.json().get("reasons").get(0).asText())
        .contains("failed to recover its runs at startup")
        .contains("does not answer");
  }

  @Test
  void metrics_are_prometheus_text_with_batons_metric_names() {
    String quick = uniqueName("metered");
    applyFlow(TestFlows.quick(quick));
    UUID runId = submit(quick);
    awaitStatus(runId, "SUCCEEDED");

    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () -> {
              Reply reply = http.get("/metrics");
              assertThat(reply.status()).isEqualTo(200);
              assertThat(reply.contentType()).startsWith("text/plain");
              assertThat(reply.body())
                  .contains("# TYPE baton_runs_started_total counter")
                  .contains("baton_runs_started_total{flow=\"" + quick + "\"} 1")
                  .contains(
                      "baton_runs_finished_total{flow=\"" + quick + "\",status=\"succeeded\"} 1")
                  .contains("# TYPE baton_step_duration_seconds histogram")
                  .contains("baton_step_duration_seconds_bucket{flow=\"" + quick + "\"")
                  .contains("# TYPE baton_journal_append_latency_seconds histogram")
                  .contains("baton_lease_state{state=\"connected\"} 1")
                  .contains("baton_claims_total{reason=")
                  .contains("jvm_memory_used_bytes{area=\"heap\"}")
                  .doesNotContain("baton_runs_started_total 1");
              assertThat(PrometheusText.parse(reply.body()).problems()).isEmpty();
            });
  }

  @Test
  void metrics_whose_names_collide_in_prometheus_do_not_break_the_scrape() {
    node.metrics().counter("baton.runs.started.same-name").inc();
    node.metrics().counter("baton.runs.started.same_name").inc(2);

    Reply reply = http.get("/metrics");

    assertThat(reply.status()).as("%s", reply).isEqualTo(200);
    assertThat(reply.body())
        .contains("baton_runs_started_same_name_total 1")
        .doesNotContain("baton_runs_started_same_name_total 2");
  }

  @Test
  void an_unknown_route_answers_404_problem() {
    JsonNode problem = assertProblem(http.get("/api/nothing-here"), 404, "not-found");

    assertThat(problem.get("detail").asText()).isEqualTo("No resource at GET /api/nothing-here");
  }

  @Test
  void a_wrong_method_answers_405_problem_with_the_allowed_methods() {
    Reply reply = http.method("DELETE", "/api/flows");

    JsonNode problem = assertProblem(reply, 405, "method-not-allowed");
    assertThat(problem.get("detail").asText()).contains("DELETE");
    assertThat(reply.headers().firstValue("Allow").orElse("")).contains("GET").contains("POST");
  }

  @Test
  void a_body_over_the_limit_answers_413_problem() {
    String huge = "{\"flow\": \"x\", \"input\": \"" + "a".repeat(70 * 1024) + "\"}";

    JsonNode problem = assertProblem(http.post("/api/runs", huge), 413, "body-too-large");

    assertThat(problem.get("detail").asText()).contains(String.valueOf(64 * 1024));
  }
}

package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code /api/runs}: submit, idempotency, reading, listing, the journal and every 4xx. */
public class RunApiTest extends ApiTestBase {
  private String quick;

  @BeforeAll
  void applyFlows() {
    quick = uniqueName("quick");
    applyFlow(TestFlows.quick(quick));
  }

  @Test
  void submitting_a_run_answers_201_with_the_run() {
    Reply reply =
        http.post("/api/runs", "{\"flow\": \"" + quick + "\", \"input\": {\"value\": 7}}");

    assertThat(reply.status()).as("%s", reply).isEqualTo(201);
    JsonNode run = reply.json();
    UUID runId = UUID.fromString(run.get("id").asText());
    assertThat(reply.headers().firstValue("Location")).hasValue("/api/v1/runs/" + runId);
    assertThat(run.get("flow").asText()).isEqualTo(quick);
    assertThat(run.get("flowHash").asText()).hasSize(64);
    assertThat(run.get("status").asText()).isIn("PENDING", "RUNNING", "SUCCEEDED");
    assertThat(run.get("input").get("value").asInt()).isEqualTo(7);
    assertThat(run.get("rootRunId").asText()).isEqualTo(runId.toString());
    assertThat(run.has("parentRunId")).isTrue();
    assertThat(run.has("steps")).as("a summary has no steps").isFalse();
  }

  @Test
  void submitting_again_with_the_same_idempotency_key_answers_200_with_the_same_run() {
    String body =
        "{\"flow\": \"" + quick + "\", \"idempotencyKey\": \"" + uniqueName("key") + "\"}";
    Reply first = http.post("/api/runs", body);
    Reply again = http.post("/api/runs", body);

    assertThat(first.status()).as("%s", first).isEqualTo(201);
    assertThat(again.status()).as("%s", again).isEqualTo(200);
    assertThat(again.json().get("id")).isEqualTo(first.json().get("id"));
    assertThat(again.json().get("idempotencyKey")).isEqualTo(first.json().get("idempotencyKey"));
  }

  @Test
  void submitting_an_unknown_flow_answers_404() {
    JsonNode problem =
        assertProblem(http.post("/api/runs", "{\"flow\": \"nope\"}"), 404, "flow-not-found");

    assertThat(problem.get("detail").asText()).isEqualTo("Flow 'nope' not found");
  }

  @Test
  void submitting_without_a_flow_answers_400() {
    JsonNode problem =
        assertProblem(http.post("/api/runs", "{\"input\": {}}"), 400, "invalid-request");

    assertThat(problem.get("detail").asText()).isEqualTo("Field 'flow' is required");
  }

  @Test
  void submitting_malformed_json_answers_400_with_where_it_broke() {
    JsonNode problem =
        assertProblem(http.post("/api/runs", "{\"flow\": \"x\",\n  oops}"), 400, "malformed-json");

    assertThat(problem.get("detail").asText()).contains("line 2");
  }

  @Test
  void submitting_an_unknown_field_or_a_wrong_type_answers_400() {
    assertThat(
            assertProblem(http.post("/api/runs", "{\"flw\": \"x\"}"), 400, "invalid-request")
                .get("detail")
                .asText())
        .contains("Unknown field 'flw'");
    assertThat(
            assertProblem(http.post("/api/runs", "{\"flow\": 3}"), 400, "invalid-request")
                .get("detail")
                .asText())
        .contains("'flow' must be a string");
    assertProblem(http.post("/api/runs", "[1, 2]"), 400, "invalid-request");
  }

  @Test
  void reading_a_finished_run_shows_its_steps_output_and_ownership() {
    UUID runId = submit(quick, "{\"value\": \"hello\"}");

    JsonNode run = awaitStatus(runId, "SUCCEEDED");

    assertThat(run.get("id").asText()).isEqualTo(runId.toString());
    assertThat(run.get("output").get("echo").asText()).isEqualTo("hello");
    assertThat(run.get("error").isNull()).isTrue();
    assertThat(run.get("recoverable").isBoolean()).isTrue();
    assertThat(run.get("orchestratorId").asText()).isEqualTo(node.nodeId());
    assertThat(run.get("createdAt").asText()).endsWith("Z");
    assertThat(run.get("updatedAt").asText()).endsWith("Z");
    assertThat(run.has("wakeAt")).isTrue();
    assertThat(run.has("statusReason")).isTrue();
    JsonNode step = stepNamed(run, "only");
    assertThat(step.get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(step.get("attempts").asInt()).isEqualTo(1);
    assertThat(step.get("output").get("echo").asText()).isEqualTo("hello");
    assertThat(step.get("finishedAt").asText()).endsWith("Z");
    assertThat(step.has("retryAt")).isTrue();
    assertThat(step.has("waitingFor")).isTrue();
    assertThat(step.has("dueAt")).isTrue();
    assertThat(run.get("children")).isEmpty();
    assertThat(run.get("ownership"))
        .singleElement()
        .satisfies(
            claim -> {
              assertThat(claim.get("node").asText()).isEqualTo(node.nodeId());
              assertThat(claim.get("token").asLong()).isPositive();
              assertThat(claim.get("reason").asText()).isEqualTo("SUBMIT");
              assertThat(claim.get("at").asText()).endsWith("Z");
              assertThat(claim.has("previousNode")).isTrue();
            });
  }

  @Test
  void reading_an_unknown_run_answers_404_and_a_malformed_id_400() {
    UUID unknown = UUID.randomUUID();
    JsonNode notFound = assertProblem(http.get("/api/runs/" + unknown), 404, "run-not-found");
    assertThat(notFound.get("detail").asText()).isEqualTo("Run " + unknown + " not found");

    JsonNode malformed = assertProblem(http.get("/api/runs/not-a-uuid"), 400, "invalid-request");
    assertThat(malformed.get("detail").asText()).contains("not-a-uuid");
    assertProblem(http.get("/api/runs/" + unknown + "/journal"), 404, "run-not-found");
  }

  @Test
  void the_journal_lists_every_entry_in_order_with_its_event_type() {
    UUID runId = submit(quick);
    awaitStatus(runId, "SUCCEEDED");

    Reply reply = http.get("/api/runs/" + runId + "/journal");

    assertThat(reply.status()).isEqualTo(200);
    JsonNode entries = reply.json().get("entries");
    assertThat(reply.json().get("runId").asText()).isEqualTo(runId.toString());
    assertThat(entries).extracting(e -> e.get("seq").asLong()).isSorted().startsWith(1L);
    assertThat(entries)
        .allSatisfy(
            e -> {
              assertThat(e.get("runId").asText()).isEqualTo(runId.toString());
              assertThat(e.get("timestamp").asText()).endsWith("Z");
            });
    assertThat(entries)
        .extracting(e -> e.get("event").get("type").asText())
        .startsWith("RunCreated", "CommandApplied", "RunClaimed")
        .contains("StepCompleted")
        .endsWith("RunCompleted");
  }

  @Test
  void listing_runs_filters_by_status_flow_and_node_newest_first() {
    String flow = uniqueName("listed");
    applyFlow(TestFlows.quick(flow));
    UUID older = submit(flow);
    UUID newer = submit(flow);
    awaitStatus(older, "SUCCEEDED");
    awaitStatus(newer, "SUCCEEDED");

    JsonNode runs =
        http.get("/api/runs?flow=" + flow + "&status=succeeded&node=" + node.nodeId())
            .json()
            .get("runs");
    assertThat(runs)
        .extracting(r -> r.get("id").asText())
        .containsExactly(newer.toString(), older.toString());
    assertThat(http.get("/api/runs?flow=" + flow + "&limit=1").json().get("runs")).hasSize(1);
    assertThat(http.get("/api/runs?flow=" + flow + "&status=FAILED").json().get("runs")).isEmpty();
    assertThat(http.get("/api/runs?flow=" + flow + "&node=elsewhere").json().get("runs")).isEmpty();
  }

  @Test
  void listing_with_a_bad_status_or_limit_answers_400() {
    JsonNode status = assertProblem(http.get("/api/runs?status=DONE"), 400, "invalid-request");
    assertThat(status.get("detail").asText()).contains("status must be one of").contains("DONE");

    assertProblem(http.get("/api/runs?limit=0"), 400, "invalid-request");
    assertProblem(http.get("/api/runs?limit=lots"), 400, "invalid-request");
    assertProblem(http.get("/api/runs?limit=100000"), 400, "invalid-request");
  }
}

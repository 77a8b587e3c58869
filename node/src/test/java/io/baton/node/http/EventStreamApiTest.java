package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code GET /api/stream}: run events as server-sent events. */
public class EventStreamApiTest extends ApiTestBase {
  private String approval;

  @BeforeAll
  void applyFlows() {
    approval = uniqueName("approval");
    applyFlow(TestFlows.approval(approval));
  }

  @Test
  void status_changes_claims_and_approval_requests_arrive_as_server_sent_events() {
    try (EventStreamClient stream = new EventStreamClient(http, "/api/stream")) {
      await().atMost(TIMEOUT).until(() -> stream.sawComment("connected"));
      UUID runId = submit(approval, "{\"orderId\": \"S-1\"}");

      await().atMost(TIMEOUT).until(() -> !eventsOf(stream, "approval-requested", runId).isEmpty());
      JsonNode requested = eventsOf(stream, "approval-requested", runId).get(0).data();
      assertThat(requested.get("step").asText()).isEqualTo("ask");
      assertThat(requested.get("prompt").toString()).contains("Ship S-1?");
      assertThat(requested.get("rootRunId").asText()).isEqualTo(runId.toString());
      JsonNode claimed = eventsOf(stream, "run-claimed", runId).get(0).data();
      assertThat(claimed.get("node").asText()).isEqualTo(node.nodeId());
      assertThat(claimed.get("reason").asText()).isEqualTo("SUBMIT");

      http.post("/api/runs/" + runId + "/approve", "");

      await()
          .atMost(TIMEOUT)
          .untilAsserted(
              () ->
                  assertThat(eventsOf(stream, "run-status", runId))
                      .extracting(e -> e.data().get("status").asText())
                      .contains("RUNNING", "WAITING", "SUCCEEDED"));
      JsonNode succeeded =
          eventsOf(stream, "run-status", runId).stream()
              .map(EventStreamClient.Event::data)
              .filter(d -> d.get("status").asText().equals("SUCCEEDED"))
              .findFirst()
              .orElseThrow();
      assertThat(succeeded.get("flow").asText()).isEqualTo(approval);
      assertThat(succeeded.get("at").asText()).endsWith("Z");
    }
  }

  @Test
  void a_stream_for_one_run_leaves_other_runs_out() {
    UUID other = submit(approval, "{\"orderId\": \"S-2\"}");
    awaitApprovalRequested(other, "ask");
    UUID watched = submit(approval, "{\"orderId\": \"S-3\"}");
    awaitApprovalRequested(watched, "ask");
    try (EventStreamClient stream = new EventStreamClient(http, "/api/stream?run=" + watched)) {
      await().atMost(TIMEOUT).until(() -> stream.sawComment("connected"));

      http.post("/api/runs/" + other + "/cancel", "");
      http.post("/api/runs/" + watched + "/cancel", "");

      await().atMost(TIMEOUT).until(() -> !stream.events("run-status").isEmpty());
      awaitStatus(other, "CANCELLED");
      assertThat(stream.events())
          .allSatisfy(e -> assertThat(e.data().toString()).contains(watched.toString()))
          .noneSatisfy(e -> assertThat(e.data().toString()).contains(other.toString()));
    }
  }

  @Test
  void idle_streams_get_a_heartbeat_comment() {
    try (EventStreamClient stream = new EventStreamClient(http, "/api/stream")) {
      assertThat(stream.status()).isEqualTo(200);

      await().atMost(TIMEOUT).until(() -> stream.sawComment("heartbeat"));
    }
  }

  @Test
  void a_client_that_disconnects_is_unsubscribed() {
    await().atMost(TIMEOUT).until(() -> node.api().streamSubscribers() == 0);
    EventStreamClient stream = new EventStreamClient(http, "/api/stream");
    await().atMost(TIMEOUT).until(() -> node.api().streamSubscribers() == 1);

    stream.close();

    await().atMost(TIMEOUT).until(() -> node.api().streamSubscribers() == 0);
  }

  @Test
  void asking_for_the_stream_without_accepting_event_streams_answers_406() {
    JsonNode problem = assertProblem(http.get("/api/stream"), 406, "not-acceptable");

    assertThat(problem.get("detail").asText()).contains("text/event-stream");
  }

  @Test
  void a_stream_filter_that_is_not_a_run_id_answers_400() {
    Reply reply =
        http.send(http.request("/api/stream?run=nope").header("Accept", "text/event-stream"));

    assertProblem(reply, 400, "invalid-request");
  }

  private static List<EventStreamClient.Event> eventsOf(
      EventStreamClient stream, String name, UUID runId) {
    return stream.events(name).stream()
        .filter(e -> e.data().get("runId").asText().equals(runId.toString()))
        .toList();
  }
}

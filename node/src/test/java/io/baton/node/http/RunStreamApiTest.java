package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.store.RunPosition;
import java.net.http.HttpRequest;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/v1/stream/runs}: a client of one node sees the changes of runs another node
 * executes, each event with an id, and a reconnect with {@code Last-Event-ID} replays what it
 * missed.
 */
class RunStreamApiTest extends ApiTestBase {
  private static List<EventStreamClient.Event> changesOf(EventStreamClient stream, UUID runId) {
    return stream.events(RunChangeFeed.RUN).stream()
        .filter(e -> e.data().get("id").asText().equals(runId.toString()))
        .toList();
  }

  @Test
  void a_client_of_one_node_sees_the_runs_another_node_executes() throws Exception {
    String approval = uniqueName("approval");
    applyFlow(TestFlows.approval(approval));
    TestNode other = startNode(nodeId("b"));
    try (EventStreamClient stream =
        new EventStreamClient(other.calls(), "/api/v1/stream/runs?flow=" + approval)) {
      await().atMost(TIMEOUT).until(() -> stream.sawComment("connected"));
      UUID runId = submit(approval, "{\"orderId\": \"o-1\"}");
      awaitApprovalRequested(runId, "ask");
      await()
          .atMost(TIMEOUT)
          .untilAsserted(
              () ->
                  assertThat(changesOf(stream, runId))
                      .extracting(e -> e.data().get("status").asText())
                      .contains("WAITING"));
      http.post("/api/v1/runs/" + runId + "/approve", "{}");
      await()
          .atMost(TIMEOUT)
          .untilAsserted(
              () ->
                  assertThat(changesOf(stream, runId))
                      .extracting(e -> e.data().get("status").asText())
                      .contains("SUCCEEDED"));
      assertThat(changesOf(stream, runId)).allSatisfy(e -> assertThat(e.id()).isNotBlank());
      assertThat(stream.events(RunChangeFeed.RUN))
          .allSatisfy(e -> assertThat(e.data().get("flow").asText()).isEqualTo(approval));
    }
  }

  @Test
  void a_reconnect_with_last_event_id_replays_the_changes_it_missed() {
    String quick = uniqueName("quick");
    applyFlow(TestFlows.quick(quick));
    String path = "/api/v1/stream/runs?flow=" + quick;
    String lastId;
    UUID first;
    try (EventStreamClient stream = new EventStreamClient(http, path)) {
      await().atMost(TIMEOUT).until(() -> stream.sawComment("connected"));
      first = submit(quick);
      awaitStatus(first, "SUCCEEDED");
      await()
          .atMost(TIMEOUT)
          .untilAsserted(
              () ->
                  assertThat(changesOf(stream, first))
                      .extracting(e -> e.data().get("status").asText())
                      .contains("SUCCEEDED"));
      List<EventStreamClient.Event> seen = changesOf(stream, first);
      lastId = seen.get(seen.size() - 1).id();
    }
    UUID missed = submit(quick);
    awaitStatus(missed, "SUCCEEDED");

    try (EventStreamClient resumed = new EventStreamClient(http, path, lastId)) {
      await()
          .atMost(TIMEOUT)
          .untilAsserted(
              () ->
                  assertThat(changesOf(resumed, missed))
                      .extracting(e -> e.data().get("status").asText())
                      .contains("SUCCEEDED"));
    }
  }

  @Test
  void a_reconnect_that_missed_more_than_the_replay_limit_is_told_to_reload() throws Exception {
    String quick = uniqueName("quick");
    applyFlow(TestFlows.quick(quick));
    UUID first = submit(quick);
    JsonNode firstRun = awaitStatus(first, "SUCCEEDED");
    // The id a client was last sent for this run's final change: its place in the feed.
    String lastId =
        Cursors.encode(new RunPosition(Instant.parse(firstRun.get("updatedAt").asText()), first));
    for (int i = 0; i < 3; i++) {
      awaitStatus(submit(quick), "SUCCEEDED");
    }
    try (HttpApi limited =
        HttpApi.builder()
            .node(node.node())
            .metrics(node.metrics())
            .readiness(node.readiness())
            .settings(HttpSettings.defaults().withPort(0))
            .clock(node.scheduler().clock())
            .streamReplayLimit(2)
            .start()) {
      ApiCalls calls = new ApiCalls(limited.uri());
      try (EventStreamClient resumed =
          new EventStreamClient(calls, "/api/v1/stream/runs", lastId)) {
        await().atMost(TIMEOUT).until(() -> !resumed.events(RunChangeFeed.RELOAD).isEmpty());
        assertThat(resumed.events(RunChangeFeed.RELOAD).get(0).data().get("reason").asText())
            .contains("more than 2 runs changed");
      }
    }
  }

  @Test
  void a_last_event_id_this_api_did_not_issue_answers_400() {
    HttpRequest.Builder request =
        http.request("/api/v1/stream/runs")
            .header("Accept", "text/event-stream")
            .header("Last-Event-ID", "garbage")
            .GET();
    JsonNode problem = assertProblem(http.send(request), 400, "invalid-request");
    assertThat(problem.get("detail").asText()).contains("Last-Event-ID");
  }
}

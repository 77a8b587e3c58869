package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.event.EventTriggers;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/events}: CloudEvents in, one run per (flow, dedup key) out, duplicates answered with
 * the same runs, replays, and every 4xx.
 */
public class EventApiTest extends ApiTestBase {
  private String prefix;
  private String ship;
  private String audit;

  @BeforeAll
  void applyFlows() {
    prefix = uniqueName("shop").replace('-', '_');
    ship = uniqueName("ship");
    audit = uniqueName("audit");
    applyFlow(
        """
        name: %s
        trigger:
          event: %s.order.created
          key: "{{ event.data.orderId }}"
        steps:
          - name: only
            capability: noop
            params: { order: "{{ input.orderId }}", from: "{{ event.source }}" }
        """
            .formatted(ship, prefix));
    applyFlow(
        """
        name: %s
        trigger: {event: "%s.order.*"}
        steps: [{name: only, capability: noop}]
        """
            .formatted(audit, prefix));
  }

  private String order(String id, int orderId) {
    return """
        {"specversion": "1.0", "id": "%s", "source": "/shop", "type": "%s.order.created",
         "time": "2026-11-26T01:02:03.456Z", "data": {"orderId": %d}}
        """
        .formatted(id, prefix, orderId);
  }

  private List<String> runIdsOf(JsonNode answer) {
    List<String> ids = new ArrayList<>();
    answer.get("runs").forEach(run -> ids.add(run.get("runId").asText()));
    return ids;
  }

  @Test
  void an_event_answers_201_with_one_run_per_matching_flow_and_again_200_with_the_same_runs() {
    String id = uniqueName("e");
    long duplicatesBefore = node.metrics().counter(EventTriggers.DUPLICATES).getCount();
    Reply first = http.post("/api/events", order(id, 41), "application/cloudevents+json");
    long duplicatesAfterFirst = node.metrics().counter(EventTriggers.DUPLICATES).getCount();
    Reply again = http.post("/api/events", order(id, 41), "application/cloudevents+json");

    assertThat(first.status()).as("%s", first).isEqualTo(201);
    JsonNode answer = first.json();
    assertThat(answer.get("duplicate").asBoolean()).isFalse();
    assertThat(answer.get("event").get("id").asText()).isEqualTo(id);
    assertThat(answer.get("runs")).hasSize(2);
    assertThat(again.status()).as("%s", again).isEqualTo(200);
    assertThat(again.json().get("duplicate").asBoolean()).isTrue();
    assertThat(runIdsOf(again.json())).isEqualTo(runIdsOf(answer));
    assertThat(duplicatesAfterFirst).isEqualTo(duplicatesBefore);
    assertThat(node.metrics().counter(EventTriggers.DUPLICATES).getCount())
        .isEqualTo(duplicatesBefore + 1);
    assertThat(http.get("/metrics").body()).contains("baton_events_duplicates_total ");

    JsonNode shipRun = null;
    for (JsonNode run : answer.get("runs")) {
      if (run.get("flow").asText().equals(ship)) {
        shipRun = run;
      }
    }
    assertThat(shipRun).isNotNull();
    assertThat(shipRun.get("key").asText()).isEqualTo("41");
    JsonNode done = awaitStatus(UUID.fromString(shipRun.get("runId").asText()), "SUCCEEDED");
    assertThat(done.get("input").get("orderId").asInt()).isEqualTo(41);
    assertThat(done.get("idempotencyKey").asText()).isEqualTo("event:" + ship + "/41");
  }

  @Test
  void a_triggered_run_links_to_its_event_and_the_event_lists_its_runs() {
    String id = uniqueName("e");
    JsonNode answer = http.post("/api/events", order(id, 43)).json();
    List<String> started = runIdsOf(answer);
    assertThat(started).hasSize(2);

    JsonNode run = http.get("/api/v1/runs/" + started.get(0)).json();
    JsonNode trigger = run.get("trigger");
    assertThat(trigger.get("id").asText()).isEqualTo(id);
    assertThat(trigger.get("source").asText()).isEqualTo("/shop");
    assertThat(trigger.get("type").asText()).isEqualTo(prefix + ".order.created");
    assertThat(trigger.get("time").asText()).isEqualTo("2026-11-26T01:02:03.456Z");
    Reply bySourceAndId = http.get(trigger.get("href").asText());
    assertThat(bySourceAndId.status()).as("%s", bySourceAndId).isEqualTo(200);
    assertThat(runIdsOf(bySourceAndId.json())).containsExactlyInAnyOrderElementsOf(started);

    String href = bySourceAndId.json().get("href").asText();
    assertThat(href).isEqualTo("/api/v1/events/" + answer.get("event").get("seq").asLong());
    Reply bySeq = http.get(href);
    assertThat(bySeq.status()).as("%s", bySeq).isEqualTo(200);
    assertThat(bySeq.json().get("id").asText()).isEqualTo(id);
    assertThat(runIdsOf(bySeq.json())).containsExactlyInAnyOrderElementsOf(started);
    for (JsonNode each : bySeq.json().get("runs")) {
      assertThat(http.get(each.get("href").asText()).json().get("trigger").get("id").asText())
          .isEqualTo(id);
    }

    UUID byHand = submit(ship, "{\"orderId\": 1}");
    assertThat(http.get("/api/v1/runs/" + byHand).json().has("trigger")).isFalse();
  }

  @Test
  void the_same_event_sent_to_two_nodes_at_once_starts_each_run_once() throws Exception {
    TestNode other = startNode(nodeId("b"));
    String id = uniqueName("e");
    CompletableFuture<Reply> onA =
        CompletableFuture.supplyAsync(() -> http.post("/api/events", order(id, 7)));
    CompletableFuture<Reply> onB =
        CompletableFuture.supplyAsync(() -> other.calls().post("/api/events", order(id, 7)));
    Reply a = onA.get();
    Reply b = onB.get();

    assertThat(List.of(a.status(), b.status()))
        .as("%s %s", a, b)
        .containsExactlyInAnyOrder(200, 201);
    assertThat(runIdsOf(a.json())).hasSize(2).isEqualTo(runIdsOf(b.json()));
  }

  @Test
  void a_batch_answers_each_event_and_201_when_any_was_new() {
    String known = uniqueName("e");
    http.post("/api/events", order(known, 1));
    Reply batch =
        http.post(
            "/api/events",
            "[" + order(known, 1) + "," + order(uniqueName("e"), 2) + "]",
            "application/cloudevents-batch+json");

    assertThat(batch.status()).as("%s", batch).isEqualTo(201);
    JsonNode events = batch.json().get("events");
    assertThat(events).hasSize(2);
    assertThat(events.get(0).get("duplicate").asBoolean()).isTrue();
    assertThat(events.get(1).get("duplicate").asBoolean()).isFalse();
  }

  @Test
  void an_event_no_flow_matches_is_kept_and_a_replay_starts_only_the_missing_runs() {
    String type = prefix + ".refund." + UUID.randomUUID();
    String id = uniqueName("r");
    Reply kept =
        http.post(
            "/api/events",
            """
            {"id": "%s", "source": "/shop", "type": "%s", "data": {"n": 1}}
            """
                .formatted(id, type));
    assertThat(kept.status()).as("%s", kept).isEqualTo(201);
    assertThat(kept.json().get("runs")).isEmpty();
    assertThat(http.get("/api/events?source=/shop&id=" + id).json().get("type").asText())
        .isEqualTo(type);

    String refunds = uniqueName("refunds");
    applyFlow(
        """
        name: %s
        trigger: {event: "%s"}
        steps: [{name: only, capability: noop}]
        """
            .formatted(refunds, type));
    String filter = "{\"type\": \"" + type + "\", \"dryRun\": true}";
    Reply dry = http.post("/api/events/replay", filter);
    assertThat(dry.status()).as("%s", dry).isEqualTo(200);
    assertThat(dry.json().get("matched").asInt()).isEqualTo(1);
    assertThat(dry.json().get("started")).isEmpty();

    Reply replay = http.post("/api/events/replay", "{\"type\": [\"" + type + "\"]}");
    assertThat(replay.json().get("replayed").asInt()).as("%s", replay).isEqualTo(1);
    assertThat(replay.json().get("started")).hasSize(1);
    assertThat(replay.json().get("started").get(0).get("flow").asText()).isEqualTo(refunds);
    Reply again = http.post("/api/events/replay", "{\"ids\": [\"" + id + "\"]}");
    assertThat(again.json().get("replayed").asInt()).isEqualTo(1);
    assertThat(again.json().get("started")).isEmpty();
  }

  @Test
  void an_unknown_event_answers_404() {
    assertProblem(http.get("/api/events?source=/shop&id=nope"), 404, "event-not-found");
  }

  @Test
  void malformed_json_answers_400() {
    assertProblem(http.post("/api/events", "{\"id\": "), 400, "malformed-json");
  }

  @Test
  void an_event_without_a_required_attribute_answers_400_naming_it() {
    JsonNode problem =
        assertProblem(
            http.post("/api/events", "{\"id\": \"x\", \"type\": \"t\"}"), 400, "invalid-request");
    assertThat(problem.get("detail").asText())
        .isEqualTo("the event: attribute 'source' is required");
    JsonNode inBatch =
        assertProblem(
            http.post(
                "/api/events",
                "[{\"id\": \"x\", \"source\": \"s\", \"type\": \"t\"}, {\"id\": 5}]"),
            400,
            "invalid-request");
    assertThat(inBatch.get("detail").asText())
        .isEqualTo("event [1]: attribute 'id' must be a non-empty string");
  }

  @Test
  void unsupported_versions_times_attributes_and_empty_batches_answer_400() {
    String base = "\"id\": \"x\", \"source\": \"s\", \"type\": \"t\"";
    assertThat(
            assertProblem(
                    http.post("/api/events", "{" + base + ", \"specversion\": \"0.3\"}"),
                    400,
                    "invalid-request")
                .get("detail")
                .asText())
        .contains("specversion '0.3' is not supported");
    assertThat(
            assertProblem(
                    http.post("/api/events", "{" + base + ", \"time\": \"yesterday\"}"),
                    400,
                    "invalid-request")
                .get("detail")
                .asText())
        .contains("time 'yesterday' is not an RFC 3339 time");
    assertThat(
            assertProblem(
                    http.post("/api/events", "{" + base + ", \"data_base64\": \"AA==\"}"),
                    400,
                    "invalid-request")
                .get("detail")
                .asText())
        .contains("only JSON data is accepted");
    assertProblem(http.post("/api/events", "[]"), 400, "invalid-request");
    assertProblem(http.post("/api/events/replay", "{\"dryRun\": \"yes\"}"), 400, "invalid-request");
    assertProblem(http.post("/api/events/replay", "{\"from\": \"soon\"}"), 400, "invalid-request");
  }

  @Test
  void the_run_list_filters_by_the_event_that_started_the_runs() {
    String id = uniqueName("e");
    JsonNode answer = http.post("/api/events", order(id, 44)).json();
    http.post("/api/events", order(uniqueName("other"), 45));
    List<String> started = runIdsOf(answer);
    assertThat(started).hasSize(2);

    JsonNode listed = http.get("/api/v1/runs?eventSource=/shop&eventId=" + id).json();
    List<String> ids = new ArrayList<>();
    listed.get("runs").forEach(run -> ids.add(run.get("id").asText()));
    assertThat(ids).containsExactlyInAnyOrderElementsOf(started);
    assertThat(http.get("/api/v1/runs?eventSource=/elsewhere&eventId=" + id).json().get("runs"))
        .isEmpty();
    assertProblem(http.get("/api/v1/runs?eventId=" + id), 400, "invalid-request");
  }
}

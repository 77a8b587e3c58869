package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The OpenAPI document against what the routes really answer: every route of the table is in it
 * with a permission, the versioned and the deprecated paths both serve, and every status it
 * documents for a route is answered by a call in this class (or, where producing it needs a failed
 * node, by the named test of another class).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ApiContractTest extends ApiTestBase {
  /** Statuses other test classes produce, with the test that does. */
  private static final Map<String, String> COVERED_ELSEWHERE =
      Map.of(
          "GET /health/live 503",
          "HealthApiTest.liveness_answers_503_with_the_reason_once_startup_recovery_failed",
          "GET /health/ready 503",
          "HealthApiTest.readiness_answers_503_with_the_reason_once_the_node_drains",
          "POST /api/v1/events 201",
          "EventApiTest.an_event_answers_201_with_one_run_per_matching_flow_and_again_200_with_the_same_runs",
          "POST /api/v1/events 200",
          "EventApiTest.an_event_answers_201_with_one_run_per_matching_flow_and_again_200_with_the_same_runs",
          "POST /api/v1/events/replay 200",
          "EventApiTest.an_event_no_flow_matches_is_kept_and_a_replay_starts_only_the_missing_runs",
          "GET /api/v1/events/{seq} 200",
          "EventApiTest.a_triggered_run_links_to_its_event_and_the_event_lists_its_runs");

  private static final Set<String> answered = new HashSet<>();

  private Reply call(String method, String template, String path, String body, int status) {
    HttpRequest.Builder request = http.request(ApiRouter.versioned(path));
    request =
        body == null
            ? request.method(method, HttpRequest.BodyPublishers.noBody())
            : request
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body));
    Reply reply = http.send(request);
    assertThat(reply.status()).as("%s %s: %s", method, path, reply).isEqualTo(status);
    answered.add(method + " " + ApiRouter.versioned(template) + " " + status);
    return reply;
  }

  @Test
  @Order(1)
  void flows_answer_as_documented() {
    String name = uniqueName("contract-flow");
    HttpRequest.Builder yaml =
        http.request("/api/v1/flows")
            .header("Content-Type", "application/yaml")
            .POST(HttpRequest.BodyPublishers.ofString(TestFlows.quick(name)));
    assertThat(http.send(yaml).status()).isEqualTo(201);
    answered.add("POST /api/v1/flows 201");
    call("POST", "/api/flows", "/api/flows", "{\"name\": \"x\", \"steps\": 5}", 400);
    HttpRequest.Builder html =
        http.request("/api/v1/flows")
            .header("Content-Type", "text/html")
            .POST(HttpRequest.BodyPublishers.ofString("<p>"));
    assertThat(http.send(html).status()).isEqualTo(415);
    answered.add("POST /api/v1/flows 415");
    call("GET", "/api/flows", "/api/flows", null, 200);
    call("GET", "/api/flows/{name}", "/api/flows/" + name, null, 200);
    call("GET", "/api/flows/{name}", "/api/flows/nope-" + name, null, 404);
    call("POST", "/api/flows/validate", "/api/flows/validate", "{\"name\": \"x\"}", 200);
    HttpRequest.Builder htmlCheck =
        http.request("/api/v1/flows/validate")
            .header("Content-Type", "text/html")
            .POST(HttpRequest.BodyPublishers.ofString("<p>"));
    assertThat(http.send(htmlCheck).status()).isEqualTo(415);
    answered.add("POST /api/v1/flows/validate 415");
  }

  @Test
  @Order(2)
  void runs_answer_as_documented() {
    String flow = uniqueName("contract-quick");
    applyFlow(TestFlows.quick(flow));
    String key = uniqueName("key");
    String body = "{\"flow\": \"" + flow + "\", \"idempotencyKey\": \"" + key + "\"}";
    UUID runId =
        UUID.fromString(
            call("POST", "/api/runs", "/api/runs", body, 201).json().get("id").asText());
    call("POST", "/api/runs", "/api/runs", body, 200);
    call("POST", "/api/runs", "/api/runs", "{}", 400);
    call("POST", "/api/runs", "/api/runs", "{\"flow\": \"nope-" + flow + "\"}", 404);
    call("GET", "/api/runs", "/api/runs?flow=" + flow, null, 200);
    call("GET", "/api/runs", "/api/runs?limit=0", null, 400);
    call("GET", "/api/runs/{id}", "/api/runs/" + runId, null, 200);
    call("GET", "/api/runs/{id}", "/api/runs/nope", null, 400);
    call("GET", "/api/runs/{id}", "/api/runs/" + UUID.randomUUID(), null, 404);
    String journal = "/api/runs/{id}/journal";
    call("GET", journal, "/api/runs/" + runId + "/journal", null, 200);
    call("GET", journal, "/api/runs/" + runId + "/journal?after=-1", null, 400);
    call("GET", journal, "/api/runs/" + UUID.randomUUID() + "/journal", null, 404);
  }

  @Test
  @Order(3)
  void commands_answer_as_documented() {
    String approval = uniqueName("contract-approval");
    applyFlow(TestFlows.approval(approval));
    String input = "{\"orderId\": \"o-1\"}";
    UUID approved = submit(approval, input);
    UUID rejected = submit(approval, input);
    UUID cancelled = submit(approval, input);
    awaitApprovalRequested(approved, "ask");
    awaitApprovalRequested(rejected, "ask");
    call("POST", "/api/runs/{id}/approve", "/api/runs/" + approved + "/approve", "{}", 200);
    call("POST", "/api/runs/{id}/reject", "/api/runs/" + rejected + "/reject", "{}", 200);
    call("POST", "/api/runs/{id}/cancel", "/api/runs/" + cancelled + "/cancel", "{}", 200);
    awaitStatus(approved, "SUCCEEDED");

    String toggled = uniqueName("contract-toggled");
    String switchName = uniqueName("switch");
    applyFlow(TestFlows.toggled(toggled, switchName));
    UUID failed = submit(toggled);
    awaitStatus(failed, "FAILED");
    steps.switchOn(switchName);
    call("POST", "/api/runs/{id}/resume", "/api/runs/" + failed + "/resume", "{}", 200);

    String backingOff = uniqueName("contract-backing-off");
    String backOffSwitch = uniqueName("switch");
    applyFlow(TestFlows.backingOff(backingOff, backOffSwitch));
    UUID waiting = submit(backingOff);
    awaitStepStatus(waiting, "flaky", "RETRY_WAIT");
    steps.switchOn(backOffSwitch);
    String retryNow = "/api/runs/{id}/steps/{step}/retry-now";
    String waitingStep = "/api/runs/" + waiting + "/steps/flaky/retry-now";
    call("POST", retryNow, waitingStep, "{\"reason\": 5}", 400);
    call("POST", retryNow, waitingStep, "{\"reason\": \"the switch is on\"}", 200);
    awaitStatus(waiting, "SUCCEEDED");
    call("POST", retryNow, waitingStep, "{}", 409);
    call("POST", retryNow, "/api/runs/" + waiting + "/steps/nope/retry-now", "{}", 404);
    call("POST", retryNow, "/api/runs/" + UUID.randomUUID() + "/steps/flaky/retry-now", null, 404);

    UUID live = submit(approval, input);
    awaitApprovalRequested(live, "ask");
    call("DELETE", "/api/runs/{id}", "/api/runs/" + live, null, 409);
    call("DELETE", "/api/runs/{id}", "/api/runs/" + approved, "{\"reason\": \"done\"}", 204);
    call("DELETE", "/api/runs/{id}", "/api/runs/" + approved, null, 404);
    call("DELETE", "/api/runs/{id}", "/api/runs/nope", null, 400);
    call("DELETE", "/api/runs/{id}", "/api/runs/" + live, "{\"color\": 1}", 400);
    call("POST", "/api/runs/{id}/cancel", "/api/runs/" + live + "/cancel", "{}", 200);
    approved = submit(approval, input);
    awaitApprovalRequested(approved, "ask");
    call("POST", "/api/runs/{id}/approve", "/api/runs/" + approved + "/approve", "{}", 200);
    awaitStatus(approved, "SUCCEEDED");

    for (String command : new String[] {"cancel", "resume", "approve", "reject"}) {
      String template = "/api/runs/{id}/" + command;
      call("POST", template, "/api/runs/" + approved + "/" + command, "{}", 409);
      call("POST", template, "/api/runs/nope/" + command, "{}", 400);
      call("POST", template, "/api/runs/" + UUID.randomUUID() + "/" + command, "{}", 404);
    }
  }

  @Test
  @Order(4)
  void the_rest_answers_as_documented() throws Exception {
    call("GET", "/api/recovery/incomplete", "/api/recovery/incomplete", null, 200);
    call("GET", "/api/recovery/incomplete", "/api/recovery/incomplete?limit=x", null, 400);
    call("GET", "/health/live", "/health/live", null, 200);
    call("GET", "/health/ready", "/health/ready", null, 200);
    call("GET", "/metrics", "/metrics", null, 200);
    call("GET", "/api/cluster", "/api/cluster", null, 200);
    String rebalance = "/api/cluster/rebalance";
    call("POST", rebalance, rebalance + "?dryRun=true", null, 200);
    call("POST", rebalance, rebalance + "?dryRun=perhaps", null, 400);
    call("GET", "/api/run-counts", "/api/run-counts", null, 200);
    call("GET", "/api/events", "/api/events", null, 200);
    call("GET", "/api/events", "/api/events?limit=x", null, 400);
    call("GET", "/api/events", "/api/events?source=/nowhere&id=nope", null, 404);
    call("GET", "/api/events/{seq}", "/api/events/nope", null, 400);
    call("GET", "/api/events/{seq}", "/api/events/" + Long.MAX_VALUE, null, 404);
    call("POST", "/api/events", "/api/events", "{\"id\": ", 400);
    call("POST", "/api/events/replay", "/api/events/replay", "{\"dryRun\": \"yes\"}", 400);
    call("GET", "/api/version", "/api/version", null, 200);
    call("GET", "/api/openapi.json", "/api/openapi.json", null, 200);
    call("GET", "/api/sign-in", "/api/sign-in", null, 200);
    call("GET", "/api/stream", "/api/stream", null, 406);
    HttpRequest.Builder badRun =
        http.request("/api/v1/stream?run=nope").header("Accept", "text/event-stream").GET();
    assertThat(http.send(badRun).status()).isEqualTo(400);
    answered.add("GET /api/v1/stream 400");
    try (EventStreamClient stream = new EventStreamClient(http, "/api/v1/stream")) {
      assertThat(stream.status()).isEqualTo(200);
      answered.add("GET /api/v1/stream 200");
    }
    call("GET", "/api/stream/runs", "/api/stream/runs", null, 406);
    HttpRequest.Builder badStatus =
        http.request("/api/v1/stream/runs?status=nope").header("Accept", "text/event-stream").GET();
    assertThat(http.send(badStatus).status()).isEqualTo(400);
    answered.add("GET /api/v1/stream/runs 400");
    try (EventStreamClient stream = new EventStreamClient(http, "/api/v1/stream/runs")) {
      assertThat(stream.status()).isEqualTo(200);
      answered.add("GET /api/v1/stream/runs 200");
    }
  }

  @Test
  @Order(2)
  void keys_audit_and_me_answer_as_documented() {
    String name = "contract-" + UUID.randomUUID().toString().substring(0, 8);
    String key = "{\"name\": \"" + name + "\", \"role\": \"viewer\"}";
    String id = call("POST", "/api/keys", "/api/keys", key, 201).json().get("id").asText();
    call("POST", "/api/keys", "/api/keys", key, 409);
    call("POST", "/api/keys", "/api/keys", "{\"role\": \"viewer\"}", 400);
    call("GET", "/api/keys", "/api/keys", null, 200);
    call("DELETE", "/api/keys/{id}", "/api/keys/" + id, "{}", 200);
    call("DELETE", "/api/keys/{id}", "/api/keys/key_nope", "{}", 404);
    call("DELETE", "/api/keys/{id}", "/api/keys/file:someone", "{}", 409);
    call("GET", "/api/audit", "/api/audit?limit=2", null, 200);
    call("GET", "/api/audit", "/api/audit?before=x", null, 400);
    call("GET", "/api/me", "/api/me", null, 200);
  }

  @Test
  @Order(5)
  void unversioned_paths_still_answer_but_say_they_are_deprecated() {
    Reply old = http.get("/api/cluster");
    assertThat(old.status()).isEqualTo(200);
    assertThat(old.headers().firstValue("Deprecation")).hasValue("true");
    assertThat(old.headers().firstValue("Link"))
        .hasValue("</api/v1/cluster>; rel=\"successor-version\"");
    Reply current = http.get("/api/v1/cluster");
    assertThat(current.status()).isEqualTo(200);
    assertThat(current.headers().firstValue("Deprecation")).isEmpty();
  }

  @Test
  @Order(6)
  void the_dashboard_is_served_at_the_root_with_its_assets() {
    Reply page = http.get("/");
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.body()).contains("<title>Baton</title>").contains("/dashboard.js");
    assertThat(http.get("/dashboard.js").status()).isEqualTo(200);
    assertThat(http.get("/dashboard.css").status()).isEqualTo(200);
    assertThat(page.body()).doesNotContain("http://").doesNotContain("https://");
  }

  @Test
  @Order(100)
  void every_route_is_documented_with_a_permission_and_every_documented_status_was_answered() {
    JsonNode document = http.get("/api/v1/openapi.json").json();
    assertThat(document.get("openapi").asText()).isEqualTo("3.1.0");
    Set<String> documented = new TreeSet<>();
    Set<String> routes = new TreeSet<>();
    for (Iterator<Map.Entry<String, JsonNode>> paths = document.get("paths").fields();
        paths.hasNext(); ) {
      Map.Entry<String, JsonNode> path = paths.next();
      for (Iterator<Map.Entry<String, JsonNode>> ops = path.getValue().fields(); ops.hasNext(); ) {
        Map.Entry<String, JsonNode> op = ops.next();
        String route = op.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey();
        routes.add(route);
        assertThat(op.getValue().get("x-permission").asText()).as(route).isNotBlank();
        op.getValue()
            .get("responses")
            .fieldNames()
            .forEachRemaining(s -> documented.add(route + " " + s));
      }
    }
    Set<String> served = new TreeSet<>();
    node.api()
        .operations()
        .forEach(o -> served.add(o.method().name() + " " + ApiRouter.versioned(o.path())));
    assertThat(routes).isEqualTo(served);

    Set<String> missing = new TreeSet<>(documented);
    missing.removeAll(answered);
    missing.removeAll(COVERED_ELSEWHERE.keySet());
    assertThat(missing).as("documented statuses no test answered").isEmpty();
    Set<String> undocumented = new TreeSet<>(answered);
    undocumented.removeAll(documented);
    assertThat(undocumented).as("statuses answered but not documented").isEmpty();
  }
}

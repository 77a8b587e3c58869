package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.node.auth.ApiKeys;
import io.baton.node.auth.ApiTokens;
import io.baton.node.auth.Authenticator;
import io.baton.node.auth.Permission;
import io.baton.node.auth.Role;
import io.baton.time.SystemScheduler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every route × every role, a pattern-limited key, no key and a wrong key: the answer is what the
 * permission table says (401 without a known key, 403 without the right, anything else with it).
 */
public class AccessControlApiTest extends ApiTestBase {
  private static final String ALLOWED_FLOW = "billing-close";
  private static final String OTHER_FLOW = "payroll-run";
  private static final String LIMITED = "limited";

  private final Map<Role, String> tokens = new EnumMap<>(Role.class);
  private final String limitedToken = ApiTokens.generate();
  private Path keysFile;

  @Override
  protected Authenticator authenticator() {
    try {
      keysFile = Files.createTempFile("baton-keys", ".yaml");
      StringBuilder yaml = new StringBuilder("keys:\n");
      for (Role role : Role.values()) {
        String token = ApiTokens.generate();
        tokens.put(role, token);
        yaml.append(entry(role.displayName() + "-key", role, token, ""));
      }
      yaml.append(entry(LIMITED, Role.DEVELOPER, limitedToken, "    flows: [\"billing-*\"]\n"));
      Files.writeString(keysFile, yaml);
      return ApiKeys.load(keysFile, SystemScheduler.systemClock());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String entry(String name, Role role, String token, String extra) {
    return "  - name: "
        + name
        + "\n    role: "
        + role.displayName()
        + "\n    hash: "
        + ApiTokens.hash(token)
        + "\n"
        + extra;
  }

  @Test
  void every_route_answers_each_role_as_the_permission_table_says() {
    RoutePermissions table = node.api().permissions();
    List<String> routes = node.api().registeredRoutes();
    assertThat(table.missing(routes)).as("routes without a permission").isEmpty();
    List<String> checked = new ArrayList<>();
    for (String route : routes) {
      RoutePermissions.Rule rule = table.rules().get(route);
      for (Role role : Role.values()) {
        int status = call(route, tokens.get(role), ALLOWED_FLOW);
        boolean allowed = rule.isPublic() || role.allows(rule.permission());
        checked.add(route + " as " + role + " -> " + status);
        if (allowed) {
          assertThat(status).as("%s as %s", route, role).isNotIn(401, 403).isLessThan(500);
        } else {
          assertThat(status).as("%s as %s", route, role).isEqualTo(403);
        }
      }
      int anonymous = call(route, null, ALLOWED_FLOW);
      int unknown = call(route, ApiTokens.generate(), ALLOWED_FLOW);
      if (rule.isPublic()) {
        assertThat(anonymous).as("%s without a key", route).isEqualTo(200);
        assertThat(unknown).as("%s with an unknown key", route).isEqualTo(200);
      } else {
        assertThat(anonymous).as("%s without a key", route).isEqualTo(401);
        assertThat(unknown).as("%s with an unknown key", route).isEqualTo(401);
      }
    }
    assertThat(checked).hasSize(routes.size() * Role.values().length);
  }

  /** Written out by hand, so that a change to a role or a route's permission is a visible one. */
  @Test
  void the_lowest_role_of_each_route_is_the_documented_one() {
    Map<String, String> lowest = new LinkedHashMap<>();
    lowest.put("POST /api/flows", "developer");
    lowest.put("GET /api/flows", "viewer");
    lowest.put("GET /api/flows/{name}", "viewer");
    lowest.put("POST /api/flows/validate", "viewer");
    lowest.put("POST /api/runs", "operator");
    lowest.put("GET /api/runs", "viewer");
    lowest.put("GET /api/runs/{id}", "viewer");
    lowest.put("GET /api/runs/{id}/journal", "viewer");
    lowest.put("POST /api/runs/{id}/cancel", "operator");
    lowest.put("POST /api/runs/{id}/resume", "operator");
    lowest.put("POST /api/runs/{id}/steps/{step}/retry-now", "operator");
    lowest.put("POST /api/runs/{id}/approve", "operator");
    lowest.put("POST /api/runs/{id}/reject", "operator");
    lowest.put("DELETE /api/runs/{id}", "operator");
    lowest.put("GET /api/recovery/incomplete", "viewer");
    lowest.put("GET /api/cluster", "viewer");
    lowest.put("GET /api/version", "viewer");
    lowest.put("POST /api/cluster/rebalance", "admin");
    lowest.put("GET /api/stream", "viewer");
    lowest.put("GET /api/stream/runs", "viewer");
    lowest.put("GET /api/run-counts", "viewer");
    lowest.put("POST /api/events", "operator");
    lowest.put("GET /api/events", "viewer");
    lowest.put("GET /api/events/{seq}", "viewer");
    lowest.put("POST /api/events/replay", "operator");
    lowest.put("POST /api/keys", "admin");
    lowest.put("GET /api/keys", "admin");
    lowest.put("DELETE /api/keys/{id}", "admin");
    lowest.put("GET /api/audit", "admin");
    lowest.put("GET /api/me", "viewer");
    lowest.put("GET /api/openapi.json", "public");
    lowest.put("GET /api/sign-in", "public");
    lowest.put("GET /health/live", "public");
    lowest.put("GET /health/ready", "public");
    lowest.put("GET /metrics", "public");
    // Each /api/ route is served at /api/v1/ and at its deprecated alias, with one permission.
    Map<String, String> served = new LinkedHashMap<>();
    lowest.forEach(
        (route, role) -> {
          served.put(route, role);
          served.put(route.replace(" /api/", " /api/v1/"), role);
        });
    assertThat(node.api().registeredRoutes()).containsExactlyInAnyOrderElementsOf(served.keySet());
    for (Map.Entry<String, String> route : served.entrySet()) {
      String expected = route.getValue();
      for (Role role : Role.values()) {
        boolean mayCall =
            expected.equals("public") || role.ordinal() >= Role.parse(expected).ordinal();
        assertThat(call(route.getKey(), tokens.get(role), ALLOWED_FLOW))
            .as("%s as %s", route.getKey(), role)
            .matches(status -> mayCall ? status != 401 && status != 403 : status == 403);
      }
    }
  }

  @Test
  void a_route_without_a_permission_keeps_the_api_from_starting() {
    HttpApi.Builder builder =
        HttpApi.builder()
            .node(node.node())
            .metrics(node.metrics())
            .readiness(node.readiness())
            .clock(node.scheduler().clock())
            .settings(HttpSettings.defaults().withPort(0))
            .adjustPermissions(table -> table.without("POST /api/v1/runs/{id}/cancel"));
    assertThatThrownBy(builder::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("POST /api/v1/runs/{id}/cancel");
  }

  @Test
  void a_key_limited_to_flow_patterns_acts_only_on_those_flows() {
    assertOnlyItsFlows(limitedToken);
  }

  /** The same answers for a limited key an admin created through the API (stored, not filed). */
  @Test
  void a_key_created_through_the_api_limited_to_flow_patterns_acts_only_on_those_flows() {
    Reply created =
        http.send(
            withToken(
                http.request("/api/v1/keys")
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"name\": \"limited-api\", \"role\": \"developer\","
                                + " \"flows\": [\"billing-*\"]}")),
                tokens.get(Role.ADMIN)));
    assertThat(created.status()).as("%s", created).isEqualTo(201);
    assertThat(created.json().get("flows").get(0).asText()).isEqualTo("billing-*");
    assertOnlyItsFlows(created.json().get("token").asText());
  }

  private void assertOnlyItsFlows(String limitedToken) {
    RoutePermissions table = node.api().permissions();
    for (String route : node.api().registeredRoutes()) {
      RoutePermissions.Rule rule = table.rules().get(route);
      boolean roleAllows = rule.isPublic() || Role.DEVELOPER.allows(rule.permission());
      int own = call(route, limitedToken, ALLOWED_FLOW);
      int other = call(route, limitedToken, OTHER_FLOW);
      if (!roleAllows) {
        assertThat(own).as("%s", route).isEqualTo(403);
        continue;
      }
      switch (rule.scope()) {
        case NONE -> assertThat(own).as("%s", route).isNotIn(401, 403);
        case ALL_FLOWS -> assertThat(own).as("%s spans all flows", route).isEqualTo(403);
        default -> {
          assertThat(own).as("%s on its own flow", route).isNotIn(401, 403).isLessThan(500);
          assertThat(other).as("%s on another flow", route).isEqualTo(403);
        }
      }
    }
  }

  /**
   * Unfiltered, a limited key's run stream carries the subflow runs of the trees whose root's flow
   * is one of its, whatever the subflow's own flow, as {@code GET runs/{id}} lets it read them and
   * {@code GET runs?root=} lists them; a root run of another flow it is not sent.
   */
  @Test
  void a_key_limited_to_flow_patterns_streams_the_subflows_of_its_trees_and_no_other_runs() {
    ApiCalls admin = http.withToken(tokens.get(Role.ADMIN));
    String child = uniqueName("payroll-part");
    String parent = uniqueName("billing-tree");
    assertThat(admin.post("/api/v1/flows", TestFlows.quick(child), "text/yaml").status())
        .isEqualTo(201);
    String tree =
        "name: %s\nsteps:\n  - name: call\n    capability: flow\n    params:\n      flow: %s\n"
            .formatted(parent, child);
    assertThat(admin.post("/api/v1/flows", tree, "text/yaml").status()).isEqualTo(201);
    ApiCalls limited = http.withToken(limitedToken);

    try (EventStreamClient stream = new EventStreamClient(limited, "/api/v1/stream/runs")) {
      assertThat(stream.status()).isEqualTo(200);
      await().atMost(TIMEOUT).until(() -> stream.sawComment("connected"));
      UUID other = succeeded(admin, child);
      UUID root = succeeded(admin, parent);
      Reply subflows = admin.get("/api/v1/runs?root=" + root + "&flow=" + child);
      assertThat(subflows.json().get("runs")).as("%s", subflows).hasSize(1);
      String subflow = subflows.json().get("runs").get(0).get("id").asText();
      assertThat(limited.get("/api/v1/runs/" + subflow).status()).isEqualTo(200);
      Reply listed = limited.get("/api/v1/runs?root=" + root);
      assertThat(listed.status()).as("%s", listed).isEqualTo(200);
      assertThat(listed.json().get("runs"))
          .extracting(run -> run.get("id").asText())
          .containsExactlyInAnyOrder(root.toString(), subflow);

      await()
          .atMost(TIMEOUT)
          .untilAsserted(
              () ->
                  assertThat(stream.events(RunChangeFeed.RUN))
                      .filteredOn(e -> e.data().get("id").asText().equals(subflow))
                      .extracting(e -> e.data().get("status").asText())
                      .contains("SUCCEEDED"));
      assertThat(stream.events(RunChangeFeed.RUN))
          .extracting(e -> e.data().get("id").asText())
          .contains(root.toString())
          .doesNotContain(other.toString());
    }
  }

  /** A run of {@code flow} submitted as the admin {@code calls}, once it has succeeded. */
  private static UUID succeeded(ApiCalls calls, String flow) {
    Reply submitted = calls.post("/api/v1/runs", "{\"flow\": \"" + flow + "\"}");
    assertThat(submitted.status()).as("%s", submitted).isEqualTo(201);
    UUID run = UUID.fromString(submitted.json().get("id").asText());
    await()
        .atMost(TIMEOUT)
        .until(
            () -> calls.get("/api/v1/runs/" + run).json().get("status").asText(),
            "SUCCEEDED"::equals);
    return run;
  }

  @Test
  void refusals_are_problems_that_say_who_lacks_what() {
    Reply none = http.get("/api/runs");
    JsonAssert problem = new JsonAssert(assertProblem(none, 401, "unauthenticated"));
    problem.detailContains("Authorization: Bearer");
    assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"baton\"");

    Reply viewer =
        http.send(
            withToken(
                http.request("/api/runs")
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"flow\": \"x\"}")),
                tokens.get(Role.VIEWER)));
    new JsonAssert(assertProblem(viewer, 403, "forbidden"))
        .detailContains("viewer-key")
        .detailContains(Permission.RUNS_SUBMIT.displayName())
        .detailContains("operator");
  }

  @Test
  void an_authenticated_caller_is_who_acted_whatever_the_body_says() {
    UUID run = prepareRun(ALLOWED_FLOW);
    Reply reply =
        http.send(
            withToken(
                http.request("/api/runs/" + run + "/approve")
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"by\": \"someone-else\", \"comment\": \"ok\"}")),
                tokens.get(Role.OPERATOR)));
    assertThat(reply.status()).as("%s", reply).isEqualTo(200);
    Reply journal =
        http.send(
            withToken(
                http.request("/api/runs/" + run + "/journal").GET(), tokens.get(Role.VIEWER)));
    assertThat(journal.body()).contains("operator-key").doesNotContain("someone-else");
  }

  @Test
  void a_revoked_key_stops_working_within_seconds() throws IOException {
    String token = tokens.get(Role.ADMIN);
    assertThat(call("GET /api/cluster", token, ALLOWED_FLOW)).isEqualTo(200);
    String original = Files.readString(keysFile);
    try {
      Files.writeString(
          keysFile,
          original.replace(
              "hash: " + ApiTokens.hash(token),
              "hash: " + ApiTokens.hash(token) + "\n    revoked: true"));
      await()
          .atMost(5, TimeUnit.SECONDS)
          .pollInterval(Duration.ofMillis(100))
          .untilAsserted(
              () -> assertThat(call("GET /api/cluster", token, ALLOWED_FLOW)).isEqualTo(401));
    } finally {
      Files.writeString(keysFile, original);
    }
    await()
        .atMost(5, TimeUnit.SECONDS)
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(
            () -> assertThat(call("GET /api/cluster", token, ALLOWED_FLOW)).isEqualTo(200));
  }

  // --- calling any route -----------------------------------------------------------------------

  /** Calls {@code route} (such as {@code "POST /api/runs/{id}/cancel"}) about {@code flow}. */
  private int call(String route, String token, String flow) {
    String plain = route.replace(" /api/v1/", " /api/");
    String[] parts = route.split(" ", 2);
    String method = parts[0];
    String path = parts[1];
    if (path.contains("{id}")) {
      path = path.replace("{id}", prepareRun(flow).toString());
    }
    path = path.replace("{name}", flow).replace("{seq}", "1").replace("{step}", "ask");
    if (plain.equals("GET /api/runs") || plain.equals("GET /api/stream/runs")) {
      path += "?flow=" + flow;
    }
    HttpRequest.Builder request = http.request(path);
    String body = body(plain, flow);
    if (method.equals("GET")) {
      request.GET();
    } else {
      request
          .header(
              "Content-Type", plain.equals("POST /api/flows") ? "text/yaml" : "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(body));
    }
    return status(withToken(request, token));
  }

  private static String body(String route, String flow) {
    return switch (route) {
      case "POST /api/flows" -> TestFlows.approval(flow);
      case "POST /api/runs" -> "{\"flow\": \"" + flow + "\", \"input\": {\"orderId\": \"o-1\"}}";
      default -> "{}";
    };
  }

  /** A run of {@code flow} waiting for approval, made with authentication as the admin. */
  private UUID prepareRun(String flow) {
    String admin = tokens.get(Role.ADMIN);
    Reply applied =
        http.send(
            withToken(
                http.request("/api/flows")
                    .header("Content-Type", "text/yaml")
                    .POST(HttpRequest.BodyPublishers.ofString(TestFlows.approval(flow))),
                admin));
    assertThat(applied.status()).as("%s", applied).isEqualTo(201);
    Reply submitted =
        http.send(
            withToken(
                http.request("/api/runs")
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body("POST /api/runs", flow))),
                admin));
    assertThat(submitted.status()).as("%s", submitted).isEqualTo(201);
    UUID run = UUID.fromString(submitted.json().get("id").asText());
    await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(20))
        .until(
            () ->
                http.send(withToken(http.request("/api/runs/" + run).GET(), admin))
                    .json()
                    .get("status")
                    .asText()
                    .equals("WAITING"));
    return run;
  }

  private static HttpRequest.Builder withToken(HttpRequest.Builder request, String token) {
    return token == null ? request : request.header("Authorization", "Bearer " + token);
  }

  /** The status alone: the event stream answers headers at once and then never ends. */
  private int status(HttpRequest.Builder request) {
    try {
      HttpResponse<InputStream> response =
          http.client()
              .sendAsync(request.build(), HttpResponse.BodyHandlers.ofInputStream())
              .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      response.body().close();
      return response.statusCode();
    } catch (Exception e) {
      throw new IllegalStateException("call failed: " + request.build().uri(), e);
    }
  }

  private record JsonAssert(JsonNode problem) {
    JsonAssert detailContains(String text) {
      assertThat(problem.get("detail").asText().toLowerCase(Locale.ROOT))
          .contains(text.toLowerCase(Locale.ROOT));
      return this;
    }
  }
}

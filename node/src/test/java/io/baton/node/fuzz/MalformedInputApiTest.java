package io.baton.node.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.node.http.ApiCalls;
import io.baton.node.http.ApiTestBase;
import io.baton.node.http.Reply;
import io.baton.node.http.TestFlows;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * No input gets a 500: mutated flows, run requests, command bodies, path ids and query parameters
 * (seeded from the test corpus and the examples) sent to every route. Each answer is below 500, an
 * error is a problem body, and no body carries a stack trace. A short run in the suite; {@code
 * -Dbaton.fuzz.cases=N} and {@code -Dbaton.fuzz.seed=S} run longer or replay one seed (the seed is
 * printed with every failure).
 */
public class MalformedInputApiTest extends ApiTestBase {
  private static final int CASES = Integer.getInteger("baton.fuzz.cases", 300);
  private static final long SEED = Long.getLong("baton.fuzz.seed", System.nanoTime());

  private final List<String> flowSeeds = new ArrayList<>();
  private String flow;
  private UUID waitingRun;

  @BeforeAll
  void seeds() throws IOException {
    flow = uniqueName("fuzzed");
    applyFlow(TestFlows.approval(flow));
    waitingRun = submit(flow, "{\"orderId\": \"o-1\"}");
    awaitApprovalRequested(waitingRun, "ask");
    flowSeeds.add(TestFlows.approval("seed-approval"));
    flowSeeds.add(TestFlows.quick("seed-quick"));
    Path examples = Path.of("..", "examples");
    if (Files.isDirectory(examples)) {
      try (Stream<Path> files = Files.list(examples)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
          flowSeeds.add(Files.readString(file));
        }
      }
    }
  }

  @Test
  void no_mutated_request_gets_a_5xx_or_a_stack_trace() {
    Mutator mutator = new Mutator(SEED);
    for (int i = 0; i < CASES; i++) {
      Case sent = nextCase(mutator);
      String what = "seed " + SEED + " (-Dbaton.fuzz.seed=" + SEED + "), case " + i + ": " + sent;
      Reply reply = send(sent, what);
      assertThat(reply.status()).as(what + " -> %s", reply).isLessThan(500);
      assertThat(reply.body()).as(what).doesNotContain("\tat ").doesNotContain("Exception");
      if (reply.status() >= 400) {
        assertThat(reply.contentType()).as(what).startsWith("application/problem+json");
        assertThat(reply.json().get("detail").asText()).as(what).isNotBlank();
      }
    }
  }

  /**
   * Sends the case; when the connection it went out on had been closed by the node (after a refused
   * body it did not read), sends it once more on a fresh connection, which must answer.
   */
  private Reply send(Case sent, String what) {
    try {
      return http.send(sent.request());
    } catch (RuntimeException closed) {
      try {
        return new ApiCalls(node.uri()).send(sent.request());
      } catch (RuntimeException noAnswer) {
        throw new AssertionError(what + " -> no answer: " + noAnswer, noAnswer);
      }
    }
  }

  /** Found by this test: a 70,000-character flow name overflowed the Location header (a 500). */
  @Test
  void a_flow_name_longer_than_the_limit_is_refused_with_the_limit() {
    String name = "a".repeat(5000);
    Reply reply = http.post("/api/flows", TestFlows.quick(name), "text/yaml");
    assertThat(reply.status()).as("%s", reply).isEqualTo(400);
    assertThat(reply.json().get("errors").get(0).get("message").asText())
        .contains("5000 characters long; at most 200");
  }

  private record Case(String method, String path, String body, HttpRequest.Builder request) {
    @Override
    public String toString() {
      String shown = body == null ? "" : body.length() > 300 ? body.substring(0, 300) + "…" : body;
      String at = path.length() > 300 ? path.substring(0, 300) + "…" : path;
      return method + " " + at + " " + shown;
    }
  }

  private Case nextCase(Mutator m) {
    String run = "/api/runs/" + waitingRun;
    return switch (m.nextInt(14)) {
      case 0 ->
          post(
              "/api/flows",
              m.mutate(flowSeeds.get(m.nextInt(flowSeeds.size()))),
              m.nextInt(2) == 0 ? "text/yaml" : "application/json");
      case 1 ->
          post(
              "/api/runs",
              m.mutate(
                  "{\"flow\": \""
                      + flow
                      + "\", \"input\": {\"orderId\": \"o-1\", \"n\": [1, 2.5, true]},"
                      + " \"idempotencyKey\": \"k-1\"}"),
              "application/json");
      case 2 ->
          post(
              run + "/" + List.of("approve", "reject", "cancel", "resume").get(m.nextInt(4)),
              m.mutate("{\"by\": \"alice\", \"step\": \"ask\", \"comment\": \"ok\"}"),
              "application/json");
      case 3 -> get("/api/runs?" + m.mutate("status=RUNNING&flow=" + flow + "&node=a&limit=10"));
      case 4 -> get("/api/runs/" + encodePath(m.mutate(waitingRun.toString())));
      case 5 ->
          get(
              "/api/runs/"
                  + encodePath(m.mutate(waitingRun.toString()))
                  + "/"
                  + List.of("journal", "").get(m.nextInt(2)));
      case 6 -> get("/api/flows/" + encodePath(m.mutate(flow)));
      case 7 -> get("/api/recovery/incomplete?" + m.mutate("limit=10"));
      case 9 ->
          get(
              "/api/v1/runs?"
                  + m.mutate(
                      "status=RUNNING,WAITING&flow="
                          + flow
                          + "&state=stuck&createdFrom=2026-01-01T00:00:00Z&input="
                          + "{\"orderId\":\"o-1\"}&rootsOnly=true&cursor=abc&limit=10"));
      case 10 -> get("/api/v1/runs/" + waitingRun + "/journal?" + m.mutate("after=1&limit=50"));
      case 11 ->
          post(
              "/api/v1/events",
              m.mutate(
                  "{\"specversion\": \"1.0\", \"id\": \"e-1\", \"source\": \"fuzz\","
                      + " \"type\": \"fuzz.happened\", \"data\": {\"n\": 1}}"),
              m.nextInt(2) == 0 ? "application/cloudevents+json" : "application/json");
      case 12 -> get("/api/v1/events?" + m.mutate("source=fuzz&id=e-1"));
      case 13 ->
          post(
              "/api/v1/events/replay",
              m.mutate(
                  "{\"type\": \"fuzz.happened\", \"from\": \"2026-01-01T00:00:00Z\","
                      + " \"to\": \"2026-12-31T00:00:00Z\", \"dryRun\": true}"),
              "application/json");
      default ->
          post(
              "/api/flows?source=" + encodeQuery(m.mutate("flows/x.yaml")),
              m.mutate(TestFlows.quick("q")),
              m.mutate("text/yaml"));
    };
  }

  /**
   * Bodies past the limit are kept under {@value #MAX_SENT} characters: the node answers 413 as
   * soon as it sees the length and closes, and a client still writing a much larger body may find
   * the connection closed before it reads the answer.
   */
  private static final int MAX_SENT = 96 * 1024;

  private Case post(String path, String rawBody, String contentType) {
    String body = rawBody.length() > MAX_SENT ? rawBody.substring(0, MAX_SENT) : rawBody;
    HttpRequest.Builder request = http.request(safePath(path));
    try {
      request.header("Content-Type", contentType);
    } catch (IllegalArgumentException unsendable) {
      request.header("Content-Type", "application/octet-stream");
    }
    request.POST(HttpRequest.BodyPublishers.ofString(body));
    return new Case("POST", path, body, request);
  }

  private Case get(String path) {
    return new Case("GET", path, null, http.request(safePath(path)).GET());
  }

  /** A path the JDK's client accepts: what it refuses to send cannot reach the node anyway. */
  private String safePath(String path) {
    int query = path.indexOf('?');
    if (query < 0) {
      return path;
    }
    return path.substring(0, query + 1) + encodeQueryKeepingSeparators(path.substring(query + 1));
  }

  private static String encodeQueryKeepingSeparators(String query) {
    StringBuilder out = new StringBuilder();
    for (String pair : query.split("&", -1)) {
      if (out.length() > 0) {
        out.append('&');
      }
      int eq = pair.indexOf('=');
      out.append(
          eq < 0
              ? encodeQuery(pair)
              : encodeQuery(pair.substring(0, eq)) + "=" + encodeQuery(pair.substring(eq + 1)));
    }
    return out.toString();
  }

  private static String encodeQuery(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static String encodePath(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }
}

package io.baton.node.process;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.JournalCodec;
import io.baton.lease.etcd.EtcdTestCluster;
import io.baton.store.postgres.testkit.TestDatabase;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Small helpers of the process tests: free ports, the API over HTTP, flow files. */
public final class ProcessTestSupport {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private ProcessTestSupport() {}

  public static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  public static JsonNode get(String url) throws Exception {
    return get(url, Duration.ofMinutes(1));
  }

  /** GETs a JSON answer, whatever its status, within {@code timeout}. */
  public static JsonNode get(String url, Duration timeout) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(timeout).build(),
            HttpResponse.BodyHandlers.ofString());
    return JournalCodec.mapper().readTree(response.body());
  }

  /** POSTs {@code json}; an answer over 299 throws, and so does none within a minute. */
  public static JsonNode post(String url, String json) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofMinutes(1))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() >= 300) {
      throw new IllegalStateException(
          url + " answered " + response.statusCode() + ": " + response.body());
    }
    return JournalCodec.mapper().readTree(response.body());
  }

  /** POSTs {@code json} and returns the answer whatever its status; bounded by {@code timeout}. */
  public static HttpResponse<String> send(String url, String json, Duration timeout)
      throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url))
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * A work directory whose examples/ holds the given flow files, as {@code baton dev} reads them.
   */
  public static Path workDir(Map<String, String> flows) throws IOException {
    Path dir = Files.createTempDirectory("baton-process");
    Files.createDirectories(dir.resolve("examples"));
    for (Map.Entry<String, String> flow : flows.entrySet()) {
      Files.writeString(dir.resolve("examples").resolve(flow.getKey()), flow.getValue());
    }
    return dir;
  }

  /** The environment of a child process: without the parent's BATON_* settings. */
  public static Map<String, String> cleanEnv() {
    Map<String, String> env = new HashMap<>();
    System.getenv().keySet().stream()
        .filter(k -> k.startsWith("BATON_"))
        .forEach(k -> env.put(k, ""));
    return env;
  }

  /**
   * The environment of one {@code baton node} of a cluster on PostgreSQL and etcd, with a short
   * lease TTL and recovery interval so that tests of adoption stay quick.
   */
  public static Map<String, String> clusterNodeEnv(
      String nodeId,
      int port,
      TestDatabase db,
      EtcdTestCluster etcd,
      String cluster,
      Duration drainTimeout) {
    Map<String, String> env = cleanEnv();
    env.put("BATON_NODE_ID", nodeId);
    env.put("BATON_CLUSTER", cluster);
    env.put("BATON_HTTP_PORT", String.valueOf(port));
    env.put("BATON_AUTH_MODE", "none");
    env.put("BATON_EGRESS_ALLOW_LOOPBACK", "true");
    env.put("BATON_STORE_TYPE", "postgres");
    env.put("BATON_STORE_URL", db.jdbcUrl());
    env.put("BATON_STORE_USER", db.server().user());
    env.put("BATON_STORE_PASSWORD", db.server().password());
    env.put("BATON_LEASE_TYPE", "etcd");
    env.put(
        "BATON_LEASE_ENDPOINTS",
        etcd.endpoints().stream().map(Object::toString).collect(Collectors.joining(",")));
    env.put("BATON_LEASE_TTL", "5s");
    env.put("BATON_EXECUTION_DRAIN_TIMEOUT", drainTimeout.toMillis() + "ms");
    env.put("BATON_RECOVERY_CHECK_INTERVAL", "2s");
    // nobody routes by readiness here; RollingRestartIT turns the warm-up on
    env.put("BATON_WARMUP_RUNS", "0");
    return env;
  }

  /** Stores a flow through {@code POST /api/flows}; fails unless the node answers 201. */
  public static void applyFlow(String baseUrl, String yaml) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(baseUrl + "/api/flows"))
                .header("Content-Type", "application/yaml")
                .POST(HttpRequest.BodyPublishers.ofString(yaml))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 201) {
      throw new IllegalStateException(
          "applying a flow: " + response.statusCode() + ": " + response.body());
    }
  }

  /** How many times the run's journal says the step completed. */
  static long completions(String baseUrl, String runId, String step) throws Exception {
    long count = 0;
    for (JsonNode entry : get(baseUrl + "/api/runs/" + runId + "/journal").path("entries")) {
      JsonNode event = entry.path("event");
      if (event.path("type").asText().equals("StepCompleted")
          && event.path("step").asText().equals(step)) {
        count++;
      }
    }
    return count;
  }

  /**
   * Submits {@code count} runs of {@link #HELD_FLOW} to {@code api}, each holding its first step at
   * {@code heldUrl} with its index as {@code n}; returns their ids in order.
   */
  static List<String> submitHeld(String api, String heldUrl, int count) throws Exception {
    List<String> runs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      runs.add(
          post(
                  api + "/api/v1/runs",
                  "{\"flow\": \"held\", \"input\": {\"url\": \""
                      + heldUrl
                      + "\", \"n\": "
                      + i
                      + "}}")
              .path("id")
              .asText());
    }
    return runs;
  }

  static final String HELD_FLOW =
      """
      name: held
      steps:
        - name: call
          capability: http
          operation: post
          params:
            url: "{{ input.url }}"
            body: {n: "{{ input.n }}"}
        - name: after
          capability: noop
          params: {answer: "{{ steps.call.output.body.key }}"}
      """;
}

package io.baton.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.marcnuri.helm.Helm;
import io.baton.lease.etcd.EtcdTestCluster;
import io.baton.node.config.ConfigLoader;
import io.baton.node.config.NodeConfig;
import io.baton.node.http.HttpApi;
import io.baton.node.metrics.PrometheusText;
import io.baton.store.postgres.testkit.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A real node on PostgreSQL and etcd, scraped after a workload with a succeeding and a failing
 * flow: the scrape follows the Prometheus naming rules, and every metric that the Grafana dashboard
 * and the chart's alerts query is in it, so that neither shows an empty panel or a silent alert.
 */
class DashboardMetricsTest {
  private static final Path ROOT = Path.of(System.getProperty("baton.root", "..")).toAbsolutePath();
  private static final Path DASHBOARD = ROOT.resolve("deploy/grafana/baton-dashboard.json");
  private static final Pattern SELECTOR = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\{");

  /** Series Prometheus makes itself, not the node. */
  private static final Set<String> FROM_PROMETHEUS = Set.of("up");

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void every_metric_the_dashboard_and_the_alerts_query_exists_on_a_running_node() throws Exception {
    String scrape = scrapeAfterWorkload();
    PrometheusText text = PrometheusText.parse(scrape);
    Set<String> samples =
        text.samples().stream().map(PrometheusText.Sample::name).collect(Collectors.toSet());

    assertThat(text.problems()).isEmpty();
    assertThat(queriedBy(dashboardQueries()))
        .isNotEmpty()
        .allSatisfy(name -> assertThat(samples).as("dashboard metric").contains(name));
    assertThat(queriedBy(alertQueries()))
        .isNotEmpty()
        .allSatisfy(name -> assertThat(samples).as("alert metric").contains(name));
    assertThat(scrape)
        .contains("baton_build_info{")
        .contains("baton_postgres_pool_active_connections")
        .contains("http_server_requests_seconds_bucket{method=\"POST\",route=\"/api/runs\"");
  }

  private String scrapeAfterWorkload() throws Exception {
    try (EtcdTestCluster etcd = EtcdTestCluster.start(1);
        TestDatabase db = TestDatabase.create("dashboard")) {
      NodeConfig config =
          NodeConfig.from(
              ConfigLoader.load(
                  null,
                  Map.of(),
                  Map.ofEntries(
                      Map.entry("nodeId", "dashboard-node"),
                      Map.entry("cluster", "dashboard-" + System.nanoTime()),
                      Map.entry("http.host", "127.0.0.1"),
                      Map.entry("http.port", "0"),
                      Map.entry("auth.mode", "none"),
                      Map.entry("store.type", "postgres"),
                      Map.entry("store.url", db.jdbcUrl()),
                      Map.entry("store.user", db.server().user()),
                      Map.entry("store.password", db.server().password()),
                      Map.entry("lease.type", "etcd"),
                      Map.entry(
                          "lease.endpoints",
                          etcd.endpoints().stream()
                              .map(Object::toString)
                              .collect(Collectors.joining(","))),
                      Map.entry("lease.ttl", "5s")),
                  Map.of()));
      NodeRuntime runtime = NodeRuntime.create(config, "test");
      HttpServing served = HttpServing.start(runtime);
      try {
        runtime.start("127.0.0.1:" + served.port());
        String api = "http://127.0.0.1:" + served.port();
        post(
            api + "/api/flows",
            "application/yaml",
            "name: dash-ok\nsteps:\n  - {name: a, capability: noop}\n  - {name: b, capability: noop}\n");
        post(
            api + "/api/flows",
            "application/yaml",
            "name: dash-fail\nsteps:\n  - name: call\n    capability: http\n    operation: post\n"
                + "    params: {url: \"http://127.0.0.1:1/nothing\"}\n");
        List<String> runs = new ArrayList<>();
        for (String flow : List.of("dash-ok", "dash-ok", "dash-fail")) {
          JsonNode run =
              new ObjectMapper()
                  .readTree(
                      post(api + "/api/runs", "application/json", "{\"flow\": \"" + flow + "\"}"));
          runs.add(run.path("id").asText());
        }
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> runs.stream().allMatch(id -> terminal(api, id)));
        return get(api + HttpApi.METRICS_PATH);
      } finally {
        served.close();
        runtime.close();
      }
    }
  }

  private boolean terminal(String api, String runId) {
    try {
      String status =
          new ObjectMapper().readTree(get(api + "/api/runs/" + runId)).path("status").asText();
      return status.equals("SUCCEEDED") || status.equals("FAILED");
    } catch (Exception e) {
      return false;
    }
  }

  private static List<String> dashboardQueries() throws Exception {
    List<String> queries = new ArrayList<>();
    for (JsonNode expr : new ObjectMapper().readTree(DASHBOARD.toFile()).findValues("expr")) {
      queries.add(expr.asText());
    }
    return queries;
  }

  private static List<String> alertQueries() {
    String rendered =
        new Helm(ROOT.resolve("deploy/helm/baton"))
            .template()
            .set("prometheusRule.enabled", true)
            .call();
    List<String> queries = new ArrayList<>();
    Matcher expr = Pattern.compile("(?m)^\\s*expr: (.*)$").matcher(rendered);
    while (expr.find()) {
      queries.add(expr.group(1));
    }
    return queries;
  }

  /** The metric names in selectors such as {@code name{job=~"$job"}}. */
  private static Set<String> queriedBy(List<String> queries) {
    Set<String> names = new TreeSet<>();
    for (String query : queries) {
      Matcher selector = SELECTOR.matcher(query);
      while (selector.find()) {
        if (!FROM_PROMETHEUS.contains(selector.group(1))) {
          names.add(selector.group(1));
        }
      }
    }
    return names;
  }

  private String post(String url, String type, String body) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", type)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 299);
    return response.body();
  }

  private String get(String url) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }
}

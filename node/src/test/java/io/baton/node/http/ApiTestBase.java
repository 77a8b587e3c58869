package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.JsonNode;
import io.baton.capability.CapabilityRegistry;
import io.baton.capability.builtin.BuiltInCapabilities;
import io.baton.capability.builtin.EgressPolicy;
import io.baton.capability.builtin.HostResolver;
import io.baton.capability.builtin.HttpCapability;
import io.baton.engine.EngineConfig;
import io.baton.node.auth.Authenticator;
import io.baton.node.metrics.NodeMetricRegistry;
import io.baton.recovery.RecoveryConfig;
import io.baton.time.SystemScheduler;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Starts one node with its HTTP API for a test class (more on demand with {@link #startNode}) and
 * offers the calls the contract tests share. Nodes run on the {@link TestBackend} that {@link
 * #createBackend} returns: in-memory stores and an in-process lease service unless the system
 * property {@value #BACKEND_PROPERTY} names another backend class, or a subclass overrides {@link
 * #createBackend} (or {@link #createNode}) to run the same tests on PostgreSQL and etcd.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ApiTestBase {
  protected static final Duration TIMEOUT = Duration.ofSeconds(15);
  private static final AtomicInteger names = new AtomicInteger();

  protected final TestSteps steps = new TestSteps();
  private final List<TestNode> started = new ArrayList<>();

  /** The system property that names the {@link TestBackend} class for every contract test. */
  public static final String BACKEND_PROPERTY = "baton.test.backend";

  private TestBackend backend;

  /** The node under test (started before the first test of the class). */
  protected TestNode node;

  /** HTTP calls to {@link #node}. */
  protected ApiCalls http;

  @BeforeAll
  void startNodeUnderTest() throws Exception {
    node = startNode(nodeId("a"));
    http = node.calls();
  }

  @AfterAll
  void stopNodes() throws Exception {
    for (int i = started.size() - 1; i >= 0; i--) {
      started.get(i).close();
    }
    started.clear();
    if (backend != null) {
      backend.close();
    }
  }

  /**
   * The backend of this test class's nodes, created before its first node and closed after its
   * last: the class named by {@value #BACKEND_PROPERTY}, else {@link InMemoryBackend}.
   */
  protected TestBackend createBackend() throws Exception {
    String name = System.getProperty(BACKEND_PROPERTY, "");
    if (name.isBlank()) {
      return new InMemoryBackend();
    }
    return (TestBackend) Class.forName(name).getConstructor().newInstance();
  }

  /** Builds a node, not started, for {@code spec}; every node of a test class joins one cluster. */
  protected NodeUnderTest createNode(NodeSpec spec) throws Exception {
    if (backend == null) {
      backend = createBackend();
    }
    return backend.build(spec);
  }

  /** A node id unique to this test class, such as {@code flowapitest-a}. */
  protected String nodeId(String suffix) {
    return getClass().getSimpleName().toLowerCase(Locale.ROOT) + "-" + suffix;
  }

  /** Builds, starts and serves a node; it is closed after the class. */
  protected TestNode startNode(String nodeId) throws Exception {
    Built built = buildNode(nodeId);
    built.node().node().start().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    return serve(built);
  }

  /** A node built for this class's cluster, not started, with its scheduler and metrics. */
  protected record Built(NodeUnderTest node, SystemScheduler scheduler, MetricRegistry metrics) {}

  protected Built buildNode(String nodeId) throws Exception {
    SystemScheduler scheduler = new SystemScheduler("test-" + nodeId, 2);
    MetricRegistry metrics = new NodeMetricRegistry();
    NodeSpec spec =
        new NodeSpec(
            nodeId,
            scheduler,
            metrics,
            capabilities(),
            EngineConfig.defaults(nodeId).withDrainTimeout(Duration.ofMillis(500)),
            RecoveryConfig.defaults());
    return new Built(createNode(spec), scheduler, metrics);
  }

  /** Serves a built node's HTTP API on a free port; it is closed after the class. */
  protected TestNode serve(Built built) {
    NodeReadiness readiness = new NodeReadiness(built.node().node());
    HttpApi api =
        HttpApi.builder()
            .node(built.node().node())
            .metrics(built.metrics())
            .readiness(readiness)
            .settings(
                HttpSettings.defaults()
                    .withPort(0)
                    .withMaxBodySize(64 * 1024)
                    .withStreamHeartbeat(Duration.ofMillis(200))
                    .withLimits(requestLimits()))
            .clock(apiClock(built))
            .version("test-version")
            .authenticator(authenticator())
            .dashboardSignIn(dashboardSignIn())
            .tls(tls())
            .start();
    TestNode testNode =
        new TestNode(built.node(), built.scheduler(), built.metrics(), api, readiness);
    started.add(testNode);
    return testNode;
  }

  /** The clock of a node's API (what ages runs): its scheduler's unless overridden. */
  protected Clock apiClock(Built built) {
    return built.scheduler().clock();
  }

  /** The request size limits of this class's nodes: the defaults unless overridden. */
  protected RequestLimits requestLimits() {
    return RequestLimits.defaults();
  }

  /** HTTPS for the nodes of this class: none (plain HTTP) unless overridden. */
  protected TlsFiles tls() {
    return null;
  }

  /** The dashboard's sign-in with an identity provider: none (API keys only) unless overridden. */
  protected DashboardSignIn dashboardSignIn() {
    return null;
  }

  /** Who may call the nodes of this class: everyone (authentication off) unless overridden. */
  protected Authenticator authenticator() {
    return Authenticator.none();
  }

  private CapabilityRegistry capabilities() {
    // the tests' http steps call servers on loopback, which the default egress policy refuses
    CapabilityRegistry.Builder builder = CapabilityRegistry.builder();
    BuiltInCapabilities.all(HttpClient.newHttpClient()).stream()
        .filter(c -> !c.name().equals(HttpCapability.NAME))
        .forEach(builder::register);
    return builder
        .register(
            new HttpCapability(
                HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build(),
                EgressPolicy.allowingLoopback(),
                HostResolver.SYSTEM))
        .discover(ApiTestBase.class.getClassLoader())
        .register(steps.hold())
        .register(steps.toggle())
        .build();
  }

  // --- shared calls ---------------------------------------------------------------------------

  /** A flow name no other test uses. */
  protected static String uniqueName(String prefix) {
    return prefix + "-" + names.incrementAndGet();
  }

  protected JsonNode applyFlow(String yaml) {
    Reply reply = http.post("/api/flows", yaml, "application/yaml");
    assertThat(reply.status()).as("%s", reply).isEqualTo(201);
    return reply.json();
  }

  protected UUID submit(String flow) {
    return submit(flow, "{}");
  }

  protected UUID submit(String flow, String inputJson) {
    Reply reply =
        http.post("/api/runs", "{\"flow\": \"" + flow + "\", \"input\": " + inputJson + "}");
    assertThat(reply.status()).as("%s", reply).isEqualTo(201);
    return UUID.fromString(reply.json().get("id").asText());
  }

  protected JsonNode run(UUID runId) {
    Reply reply = http.get("/api/runs/" + runId);
    assertThat(reply.status()).as("%s", reply).isEqualTo(200);
    return reply.json();
  }

  protected String status(UUID runId) {
    return run(runId).get("status").asText();
  }

  protected JsonNode awaitStatus(UUID runId, String status) {
    await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(20))
        .untilAsserted(() -> assertThat(status(runId)).isEqualTo(status));
    return run(runId);
  }

  /** Waits until the run has a step waiting for approval (the run is WAITING and parked). */
  protected void awaitApprovalRequested(UUID runId, String step) {
    await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(20))
        .untilAsserted(
            () -> {
              JsonNode run = run(runId);
              assertThat(run.get("status").asText()).isEqualTo("WAITING");
              assertThat(stepNamed(run, step).get("waitingFor").asText()).isEqualTo("approval");
            });
  }

  /** Waits until the run's step has this status ({@code RETRY_WAIT}: it is in back-off). */
  protected void awaitStepStatus(UUID runId, String step, String status) {
    await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(20))
        .untilAsserted(
            () -> assertThat(stepNamed(run(runId), step).get("status").asText()).isEqualTo(status));
  }

  protected static JsonNode stepNamed(JsonNode run, String name) {
    for (JsonNode step : run.get("steps")) {
      if (step.get("name").asText().equals(name)) {
        return step;
      }
    }
    throw new AssertionError("run has no step " + name + ": " + run);
  }

  /** Asserts a problem response: status, content type, type suffix, and returns its body. */
  protected static JsonNode assertProblem(Reply reply, int status, String type) {
    assertThat(reply.status()).as("%s", reply).isEqualTo(status);
    assertThat(reply.contentType()).startsWith(Problem.CONTENT_TYPE);
    JsonNode problem = reply.json();
    assertThat(problem.get("type").asText()).isEqualTo("urn:baton:problem:" + type);
    assertThat(problem.get("status").asInt()).isEqualTo(status);
    assertThat(problem.get("title").asText()).isNotBlank();
    assertThat(problem.get("detail").asText()).isNotBlank();
    assertThat(reply.body()).doesNotContain("Exception").doesNotContain("\tat ");
    return problem;
  }
}

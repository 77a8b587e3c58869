package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.baton.node.tracing.RunTraceIds;
import io.baton.node.tracing.RunTracer;
import io.baton.trace.TraceIds;
import io.baton.trace.TraceParent;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A W3C traceparent given on submit continues into the run: the run's spans (in-memory exporter)
 * are in the caller's trace and children of the caller's span, its {@code http} step's request (to
 * a real local HTTP server) carries a traceparent whose parent is the attempt's exported span, and
 * a hand-off between two nodes keeps one trace, the adopter's run span linked to the one the first
 * node started.
 */
class TraceContinuationTest extends ApiTestBase {
  static final String CALLER = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  static final String CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  static final String CALLER_SPAN = "00f067aa0ba902b7";
  static final AttributeKey<String> RUN_ID = AttributeKey.stringKey("baton.run.id");
  static final AttributeKey<String> NODE = AttributeKey.stringKey("baton.node");
  static final AttributeKey<String> CLAIM_REASON = AttributeKey.stringKey("baton.claim.reason");
  static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("baton.attempt");

  // One instance serves every test of the class (ApiTestBase): all of this is made per test.
  private InMemorySpanExporter exported;
  private final List<Runnable> detach = new ArrayList<>();
  private SdkTracerProvider provider;
  private RunTraceIds ids;
  private HttpServer server;
  private ExecutorService handlers;
  private List<String> traceparents;
  private CountDownLatch answerFirst;

  @BeforeEach
  void traceAndServe() throws IOException {
    exported = InMemorySpanExporter.create();
    handlers = Executors.newCachedThreadPool();
    traceparents = new CopyOnWriteArrayList<>();
    answerFirst = new CountDownLatch(1);
    ids = new RunTraceIds();
    provider =
        SdkTracerProvider.builder()
            .setIdGenerator(ids)
            .addSpanProcessor(SimpleSpanProcessor.create(exported))
            .build();
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(handlers);
    server.createContext("/quick", exchange -> answer(exchange, false));
    server.createContext("/held", exchange -> answer(exchange, true));
    server.start();
  }

  /** Records the request's traceparent; the first request to a held path waits for the test. */
  private void answer(HttpExchange exchange, boolean held) throws IOException {
    traceparents.add(String.valueOf(exchange.getRequestHeaders().getFirst("traceparent")));
    if (held && traceparents.size() == 1) {
      try {
        answerFirst.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    byte[] body = "{\"ok\": true}".getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }

  @AfterEach
  void stop() {
    answerFirst.countDown();
    detach.forEach(Runnable::run);
    detach.clear();
    server.stop(0);
    handlers.shutdownNow();
    provider.close();
  }

  private RunTracer trace(TestNode traced) {
    RunTracer tracer = new RunTracer(provider.get("test"), ids, traced.nodeId());
    traced.node().engine().addListener(tracer);
    detach.add(() -> traced.node().engine().removeListener(tracer));
    return tracer;
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  private String httpFlow(String name, String path) {
    return """
        name: %s
        steps:
          - name: call
            capability: http
            operation: get
            params: {url: "%s"}
          - name: after
            capability: noop
            needs: [call]
        """
        .formatted(name, url(path));
  }

  private static UUID submitTraced(ApiCalls calls, String flow, String traceparent) {
    Reply reply =
        calls.send(
            calls
                .request("/api/v1/runs")
                .header("Content-Type", "application/json")
                .header("traceparent", traceparent)
                .POST(HttpRequest.BodyPublishers.ofString("{\"flow\": \"" + flow + "\"}")));
    assertThat(reply.status()).as("%s", reply).isEqualTo(201);
    return UUID.fromString(reply.json().get("id").asText());
  }

  private List<SpanData> spansOf(UUID runId) {
    return exported.getFinishedSpanItems().stream()
        .filter(span -> runId.toString().equals(span.getAttributes().get(RUN_ID)))
        .toList();
  }

  private List<SpanData> named(UUID runId, String name) {
    return spansOf(runId).stream().filter(s -> s.getName().equals(name)).toList();
  }

  @Test
  void a_run_submitted_with_a_traceparent_joins_the_callers_trace_and_its_http_call_continues_it() {
    trace(node);
    String flow = uniqueName("traced");
    applyFlow(httpFlow(flow, "/quick"));

    UUID runId = submitTraced(http, flow, CALLER);
    awaitSucceeded(runId);

    await().atMost(TIMEOUT).until(() -> spansOf(runId).size() == 3);
    assertThat(spansOf(runId)).allSatisfy(s -> assertThat(s.getTraceId()).isEqualTo(CALLER_TRACE));
    SpanData run = named(runId, "run " + flow).get(0);
    assertThat(run.getParentSpanId()).isEqualTo(CALLER_SPAN);
    assertThat(run.getParentSpanContext().isRemote()).isTrue();
    assertThat(run.getAttributes().get(CLAIM_REASON)).isEqualTo("submit");
    SpanData call = named(runId, "step call").get(0);
    assertThat(call.getParentSpanId()).isEqualTo(run.getSpanId());

    TraceParent sent = TraceParent.parse(traceparents.get(0)).orElseThrow();
    assertThat(sent.traceId()).isEqualTo(CALLER_TRACE);
    assertThat(sent.parentId()).isEqualTo(call.getSpanId());
    assertThat(sent.isSampled()).isTrue();
  }

  @Test
  void a_run_without_a_traceparent_keeps_its_own_trace_and_sends_one_only_while_traced() {
    String flow = uniqueName("untraced");
    applyFlow(httpFlow(flow, "/quick"));

    UUID quiet = submit(flow);
    awaitSucceeded(quiet);
    assertThat(traceparents).containsExactly("null");

    trace(node);
    node.node().engine().traceAllRuns(true);
    detach.add(() -> node.node().engine().traceAllRuns(false));
    UUID traced = submit(flow);
    awaitSucceeded(traced);
    await().atMost(TIMEOUT).until(() -> spansOf(traced).size() == 3);
    SpanData call = named(traced, "step call").get(0);
    assertThat(call.getTraceId()).isEqualTo(RunTraceIds.traceIdOf(traced));
    assertThat(named(traced, "run " + flow).get(0).getParentSpanContext().isValid()).isFalse();
    assertThat(traceparents.get(1))
        .isEqualTo(TraceParent.sampled(call.getTraceId(), call.getSpanId()).toString());
  }

  @Test
  void an_event_with_a_traceparent_starts_runs_that_continue_its_trace() {
    trace(node);
    String flow = uniqueName("on-traced-event");
    String type = uniqueName("traced") + ".happened";
    applyFlow(
        "name: "
            + flow
            + "\ntrigger: {event: \""
            + type
            + "\"}\n"
            + "steps: [{name: only, capability: noop}]\n");

    Reply reply =
        http.post(
            "/api/events",
            "{\"specversion\": \"1.0\", \"id\": \"e-1\", \"source\": \"/test\", \"type\": \""
                + type
                + "\", \"traceparent\": \""
                + CALLER
                + "\", \"data\": {}}",
            "application/cloudevents+json");
    assertThat(reply.status()).as("%s", reply).isIn(200, 201, 202);
    UUID runId = UUID.fromString(reply.json().findValues("runId").get(0).asText());
    awaitSucceeded(runId);

    await().atMost(TIMEOUT).until(() -> spansOf(runId).size() == 2);
    assertThat(spansOf(runId)).allSatisfy(s -> assertThat(s.getTraceId()).isEqualTo(CALLER_TRACE));
    assertThat(named(runId, "run " + flow).get(0).getParentSpanId()).isEqualTo(CALLER_SPAN);
  }

  @Test
  void an_event_with_a_malformed_traceparent_is_a_400() {
    Reply reply =
        http.post(
            "/api/events",
            "{\"specversion\": \"1.0\", \"id\": \"e-2\", \"source\": \"/test\", \"type\": \"x\","
                + " \"traceparent\": \"01-zz\", \"data\": {}}",
            "application/cloudevents+json");
    assertThat(assertProblem(reply, 400, "invalid-request").get("detail").asText())
        .contains("invalid traceparent");
  }

  @Test
  void a_malformed_traceparent_is_a_400_that_says_why() {
    String flow = uniqueName("refused");
    applyFlow(httpFlow(flow, "/quick"));
    Reply reply =
        http.send(
            http.request("/api/v1/runs")
                .header("Content-Type", "application/json")
                .header("traceparent", "00-not-a-trace-01")
                .POST(HttpRequest.BodyPublishers.ofString("{\"flow\": \"" + flow + "\"}")));
    assertThat(assertProblem(reply, 400, "invalid-request").get("detail").asText())
        .contains("invalid traceparent '00-not-a-trace-01'");
  }

  @Test
  void a_hand_off_keeps_one_trace_and_links_the_adopters_run_span_to_the_first() throws Exception {
    trace(node);
    TestNode leaving = startNode(nodeId("leaving"));
    RunTracer leavingTracer = trace(leaving);
    String flow = uniqueName("handed-off");
    applyFlow(httpFlow(flow, "/held"));

    UUID runId = submitTraced(leaving.calls(), flow, CALLER);
    await().atMost(TIMEOUT).until(() -> traceparents.size() == 1);
    leaving.node().drain().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    leavingTracer.endAll(Instant.now());
    answerFirst.countDown();
    awaitSucceeded(runId);

    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () -> assertThat(named(runId, "run " + flow)).as("%s", spansOf(runId)).hasSize(2));
    await().atMost(TIMEOUT).until(() -> !named(runId, "step after").isEmpty());
    assertThat(spansOf(runId)).allSatisfy(s -> assertThat(s.getTraceId()).isEqualTo(CALLER_TRACE));
    SpanData first = runSpanOn(runId, flow, leaving.nodeId());
    SpanData adopted = runSpanOn(runId, flow, node.nodeId());
    assertThat(first.getParentSpanId()).isEqualTo(CALLER_SPAN);
    assertThat(adopted.getParentSpanId()).isEqualTo(CALLER_SPAN);
    assertThat(first.getAttributes().get(CLAIM_REASON)).isEqualTo("submit");
    assertThat(adopted.getAttributes().get(CLAIM_REASON)).isEqualTo("handoff");
    assertThat(adopted.getLinks())
        .extracting(LinkData::getSpanContext)
        .anySatisfy(
            linked -> {
              assertThat(linked.getTraceId()).isEqualTo(CALLER_TRACE);
              assertThat(linked.getSpanId()).isEqualTo(first.getSpanId());
            });

    // Every try of the http step sent the caller's trace; the one that completed names the span
    // the adopter exported for its attempt as parent.
    assertThat(traceparents).hasSizeGreaterThanOrEqualTo(2);
    SpanData call =
        named(runId, "step call").stream()
            .filter(s -> node.nodeId().equals(s.getAttributes().get(NODE)))
            .findFirst()
            .orElseThrow();
    TraceParent last = TraceParent.parse(traceparents.get(traceparents.size() - 1)).orElseThrow();
    assertThat(last.traceId()).isEqualTo(CALLER_TRACE);
    assertThat(last.parentId())
        .isEqualTo(call.getSpanId())
        .isEqualTo(
            TraceIds.stepSpanId(runId, "call", call.getAttributes().get(ATTEMPT).intValue()));
    assertThat(call.getParentSpanId()).isEqualTo(adopted.getSpanId());
  }

  private void awaitSucceeded(UUID runId) {
    await()
        .atMost(TIMEOUT)
        .until(() -> List.of("SUCCEEDED", "FAILED", "CANCELLED").contains(status(runId)));
    assertThat(status(runId)).as("%s", run(runId)).isEqualTo("SUCCEEDED");
  }

  private SpanData runSpanOn(UUID runId, String flow, String nodeId) {
    return named(runId, "run " + flow).stream()
        .filter(s -> nodeId.equals(s.getAttributes().get(NODE)))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no run span on " + nodeId));
  }
}

package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.baton.node.tracing.RunTraceIds;
import io.baton.node.tracing.RunTracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Runs on a node traced into an in-memory exporter: a span per run and a child span per step
 * attempt, in the trace of the run tree (its root run id), with the run id and the step's
 * capability, attempt and error code.
 */
class RunTracingTest extends ApiTestBase {
  private static final AttributeKey<String> RUN_ID = AttributeKey.stringKey("baton.run.id");
  private static final AttributeKey<String> STEP = AttributeKey.stringKey("baton.step");

  private InMemorySpanExporter exported;
  private SdkTracerProvider provider;
  private RunTracer tracer;

  /** A tracer per test (the class's node is shared by its tests). */
  @BeforeEach
  void trace() {
    RunTraceIds ids = new RunTraceIds();
    exported = InMemorySpanExporter.create();
    provider =
        SdkTracerProvider.builder()
            .setIdGenerator(ids)
            .addSpanProcessor(SimpleSpanProcessor.create(exported))
            .build();
    tracer = new RunTracer(provider.get("test"), ids, node.nodeId());
    node.node().engine().addListener(tracer);
  }

  @AfterEach
  void stopTracing() {
    node.node().engine().removeListener(tracer);
    provider.close();
  }

  private List<SpanData> spansOf(UUID runId) {
    return exported.getFinishedSpanItems().stream()
        .filter(span -> runId.toString().equals(span.getAttributes().get(RUN_ID)))
        .toList();
  }

  @Test
  void a_run_is_a_span_and_each_step_a_child_span_in_the_trace_of_its_run_tree() {
    String flow = uniqueName("traced");
    applyFlow(
        """
        name: %s
        steps:
          - name: first
            capability: noop
          - name: second
            capability: noop
            needs: [first]
        """
            .formatted(flow));
    UUID runId = submit(flow);
    awaitStatus(runId, "SUCCEEDED");

    await().atMost(TIMEOUT).until(() -> spansOf(runId).size() == 3);
    List<SpanData> spans = spansOf(runId);
    SpanData run = spans.stream().filter(s -> s.getName().equals("run " + flow)).findFirst().get();
    List<SpanData> steps = spans.stream().filter(s -> s.getName().startsWith("step ")).toList();

    assertThat(run.getTraceId()).isEqualTo(RunTraceIds.traceIdOf(runId));
    assertThat(run.getParentSpanContext().isValid()).isFalse();
    assertThat(steps)
        .extracting(s -> s.getAttributes().get(STEP))
        .containsExactlyInAnyOrder("first", "second");
    for (SpanData step : steps) {
      assertThat(step.getTraceId()).isEqualTo(run.getTraceId());
      assertThat(step.getParentSpanId()).isEqualTo(run.getSpanId());
      assertThat(step.getAttributes().get(AttributeKey.stringKey("baton.capability")))
          .isEqualTo("noop");
      assertThat(step.getAttributes().get(AttributeKey.longKey("baton.attempt"))).isEqualTo(1);
      assertThat(step.getStartEpochNanos()).isGreaterThanOrEqualTo(run.getStartEpochNanos());
      assertThat(step.getEndEpochNanos()).isLessThanOrEqualTo(run.getEndEpochNanos());
    }
  }

  @Test
  void a_failed_step_and_its_run_are_error_spans_with_the_error_code() {
    String flow = uniqueName("traced-failure");
    applyFlow(TestFlows.toggled(flow, uniqueName("off")));
    UUID runId = submit(flow);
    awaitStatus(runId, "FAILED");

    await().atMost(TIMEOUT).until(() -> spansOf(runId).size() == 3);
    SpanData flaky =
        spansOf(runId).stream().filter(s -> s.getName().equals("step flaky")).findFirst().get();
    SpanData run =
        spansOf(runId).stream().filter(s -> s.getName().equals("run " + flow)).findFirst().get();

    assertThat(flaky.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(flaky.getAttributes().get(AttributeKey.stringKey("baton.error.code")))
        .isEqualTo("switched_off");
    assertThat(run.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
  }
}

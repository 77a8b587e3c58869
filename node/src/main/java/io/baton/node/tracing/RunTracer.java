package io.baton.node.tracing;

import io.baton.engine.RunEvent;
import io.baton.engine.RunEventListener;
import io.baton.journal.RunStatus;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns what the engine journaled into OpenTelemetry spans: one span per run on each node that
 * executes it (from the first RUNNING, or the claim that adopted it, to its end or its hand-off),
 * and one span per step attempt, a child of its run's span, timed by the journal (from the
 * attempt's start to its journaled outcome). Every span of a run tree has the tree's trace id, the
 * root run id's 128 bits ({@link RunTraceIds}): the spans a failover splits across nodes stay in
 * one trace. Attributes: {@code baton.run.id}, {@code baton.root_run.id}, {@code baton.flow},
 * {@code baton.node}, and on steps {@code baton.step}, {@code baton.capability}, {@code
 * baton.attempt}, {@code baton.error.code}. Thread-safe.
 */
public final class RunTracer implements RunEventListener {
  static final AttributeKey<String> RUN_ID = AttributeKey.stringKey("baton.run.id");
  static final AttributeKey<String> ROOT_RUN_ID = AttributeKey.stringKey("baton.root_run.id");
  static final AttributeKey<String> FLOW = AttributeKey.stringKey("baton.flow");
  static final AttributeKey<String> NODE = AttributeKey.stringKey("baton.node");
  static final AttributeKey<String> STEP = AttributeKey.stringKey("baton.step");
  static final AttributeKey<String> CAPABILITY = AttributeKey.stringKey("baton.capability");
  static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("baton.attempt");
  static final AttributeKey<String> ERROR_CODE = AttributeKey.stringKey("baton.error.code");
  static final AttributeKey<String> CLAIM_REASON = AttributeKey.stringKey("baton.claim.reason");

  private final Tracer tracer;
  private final RunTraceIds ids;
  private final String nodeId;
  private final Map<UUID, Span> runs = new ConcurrentHashMap<>();

  public RunTracer(Tracer tracer, RunTraceIds ids, String nodeId) {
    this.tracer = tracer;
    this.ids = ids;
    this.nodeId = nodeId;
  }

  @Override
  public void onEvent(RunEvent event) {
    if (event instanceof RunEvent.StatusChanged changed) {
      statusChanged(changed);
    } else if (event instanceof RunEvent.StepFinished step) {
      stepFinished(step);
    } else if (event instanceof RunEvent.Claimed claimed) {
      Span run = runs.get(claimed.runId());
      if (run != null) {
        run.addEvent("claimed: " + claimed.reason().name().toLowerCase(Locale.ROOT));
      }
    }
  }

  private void statusChanged(RunEvent.StatusChanged changed) {
    if (changed.status() == RunStatus.RUNNING) {
      runSpan(changed.runId(), changed.rootRunId(), changed.flow(), changed.at());
    } else if (changed.status().isTerminal()) {
      Span run = runSpan(changed.runId(), changed.rootRunId(), changed.flow(), changed.at());
      runs.remove(changed.runId());
      run.setAttribute("baton.status", changed.status().name());
      if (changed.status() == RunStatus.FAILED) {
        run.setStatus(StatusCode.ERROR, String.valueOf(changed.reason()));
      }
      run.end(changed.at());
    } else if (changed.status() == RunStatus.WAITING) {
      Span run = runs.remove(changed.runId());
      if (run != null) {
        run.setAttribute("baton.status", changed.status().name());
        run.end(changed.at());
      }
    }
  }

  private void stepFinished(RunEvent.StepFinished step) {
    Span run = runSpan(step.runId(), step.rootRunId(), step.flow(), step.startedAt());
    Span span =
        tracer
            .spanBuilder("step " + step.step())
            .setParent(Context.root().with(run))
            .setSpanKind(SpanKind.INTERNAL)
            .setStartTimestamp(step.startedAt())
            .setAttribute(RUN_ID, step.runId().toString())
            .setAttribute(ROOT_RUN_ID, step.rootRunId().toString())
            .setAttribute(FLOW, step.flow())
            .setAttribute(NODE, nodeId)
            .setAttribute(STEP, step.step())
            .setAttribute(CAPABILITY, step.capability())
            .setAttribute(ATTEMPT, (long) step.attempt())
            .startSpan();
    if (!step.succeeded()) {
      span.setAttribute(ERROR_CODE, String.valueOf(step.errorCode()));
      span.setStatus(StatusCode.ERROR, String.valueOf(step.errorCode()));
    }
    span.end(step.at());
  }

  /** This node's span of the run, started at {@code at} if there is none yet. */
  private Span runSpan(UUID runId, UUID rootRunId, String flow, Instant at) {
    return runs.computeIfAbsent(
        runId,
        id ->
            ids.inTraceOf(
                rootRunId,
                () ->
                    tracer
                        .spanBuilder("run " + flow)
                        .setNoParent()
                        .setSpanKind(SpanKind.INTERNAL)
                        .setStartTimestamp(at)
                        .setAttribute(RUN_ID, runId.toString())
                        .setAttribute(ROOT_RUN_ID, rootRunId.toString())
                        .setAttribute(FLOW, flow)
                        .setAttribute(NODE, nodeId)
                        .startSpan()));
  }

  /** Ends the spans of runs this node still holds (at shutdown: their hand-off). */
  public void endAll(Instant at) {
    runs.forEach(
        (id, span) -> {
          span.setAttribute("baton.status", "HANDED_OFF");
          span.end(at);
        });
    runs.clear();
  }
}

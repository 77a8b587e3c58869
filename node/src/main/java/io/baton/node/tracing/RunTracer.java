package io.baton.node.tracing;

import io.baton.engine.RunEvent;
import io.baton.engine.RunEvent.TreeTrace;
import io.baton.engine.RunEventListener;
import io.baton.journal.RunStatus;
import io.baton.journal.replay.ClaimRecord;
import io.baton.trace.TraceIds;
import io.baton.trace.TraceParent;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns what the engine journaled into OpenTelemetry spans: one span per run on each node that
 * executes it (from the claim that gave the node its tree, or its first RUNNING, to its end, its
 * wait or its hand-off), and one span per step attempt, a child of its run's span, timed by the
 * journal (from the attempt's start to its journaled outcome).
 *
 * <p>Trace: a tree submitted with a {@code traceparent} (or triggered by an event that carried one)
 * is in the caller's trace, and its run spans are children of the caller's span; any other tree's
 * trace id is its root run id's 128 bits ({@link RunTraceIds}). Either way every node that executes
 * the tree, before and after a failover, writes into the same trace.
 *
 * <p>Ids every node derives alike ({@link TraceIds}): a step attempt's span id follows from (run,
 * step, attempt), so it is the parent the attempt's {@code http} requests announced before the span
 * existed; the root run's span that a claim starts has an id that follows from the claim (token,
 * time), and links to the span the previous claim started, so a failover's spans are linked.
 *
 * <p>Attributes: {@code baton.run.id}, {@code baton.root_run.id}, {@code baton.flow}, {@code
 * baton.node}, {@code baton.claim.reason} on a claim's span, and on steps {@code baton.step},
 * {@code baton.capability}, {@code baton.attempt}, {@code baton.error.code}. Thread-safe.
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
  static final AttributeKey<String> PREVIOUS_NODE =
      AttributeKey.stringKey("baton.claim.previous_node");
  static final AttributeKey<String> STATUS = AttributeKey.stringKey("baton.status");

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
      claimed(claimed);
    }
  }

  private void statusChanged(RunEvent.StatusChanged changed) {
    if (changed.status() == RunStatus.RUNNING) {
      runSpan(changed.runId(), changed.rootRunId(), changed.flow(), changed.at(), changed.trace());
    } else if (changed.status().isTerminal()) {
      Span run =
          runSpan(
              changed.runId(), changed.rootRunId(), changed.flow(), changed.at(), changed.trace());
      runs.remove(changed.runId());
      run.setAttribute(STATUS, changed.status().name());
      if (changed.status() == RunStatus.FAILED) {
        run.setStatus(StatusCode.ERROR, String.valueOf(changed.reason()));
      }
      run.end(changed.at());
    } else if (changed.status() == RunStatus.WAITING) {
      Span run = runs.remove(changed.runId());
      if (run != null) {
        run.setAttribute(STATUS, changed.status().name());
        run.end(changed.at());
      }
    }
  }

  /**
   * A claim (of a root run: claims are of trees) starts this node's span of the root, with the id
   * the claim names and a link to the span the previous claim started. A span still open from an
   * earlier claim by this node ends there.
   */
  private void claimed(RunEvent.Claimed claimed) {
    TreeTrace trace = claimed.trace() == null ? TreeTrace.NONE : claimed.trace();
    ClaimRecord owner = trace.owner();
    if (owner == null) {
      return;
    }
    UUID root = claimed.runId();
    Span earlier = runs.remove(root);
    if (earlier != null) {
      earlier.setAttribute(STATUS, "RECLAIMED");
      earlier.end(claimed.at());
    }
    String traceId = traceIdOf(root, trace);
    SpanBuilder span =
        runSpanBuilder(root, root, trace.rootFlow(), claimed.at(), trace.traceparent())
            .setAttribute(CLAIM_REASON, claimed.reason().name().toLowerCase(Locale.ROOT));
    ClaimRecord previous = trace.previousOwner();
    if (previous != null) {
      span.addLink(
          SpanContext.create(
              traceId,
              TraceIds.runSpanId(root, previous.token(), previous.at()),
              TraceFlags.getSampled(),
              TraceState.getDefault()),
          previous.node() == null
              ? Attributes.empty()
              : Attributes.of(PREVIOUS_NODE, previous.node()));
    }
    runs.put(
        root,
        ids.building(root, TraceIds.runSpanId(root, owner.token(), owner.at()), span::startSpan));
  }

  private void stepFinished(RunEvent.StepFinished step) {
    Span run = runSpan(step.runId(), step.rootRunId(), step.flow(), step.startedAt(), step.trace());
    SpanBuilder builder =
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
            .setAttribute(ATTEMPT, (long) step.attempt());
    Span span =
        ids.building(
            null,
            TraceIds.stepSpanId(step.runId(), step.step(), step.attempt()),
            builder::startSpan);
    if (!step.succeeded()) {
      span.setAttribute(ERROR_CODE, String.valueOf(step.errorCode()));
      span.setStatus(StatusCode.ERROR, String.valueOf(step.errorCode()));
    }
    span.end(step.at());
  }

  /** This node's span of the run, started at {@code at} if there is none yet. */
  private Span runSpan(UUID runId, UUID rootRunId, String flow, Instant at, TreeTrace trace) {
    String traceparent = trace == null ? null : trace.traceparent();
    return runs.computeIfAbsent(
        runId,
        id ->
            ids.building(
                rootRunId,
                null,
                runSpanBuilder(runId, rootRunId, flow, at, traceparent)::startSpan));
  }

  /**
   * A run's span: a child of the caller's span when the tree continues a caller's trace, else the
   * root of the tree's own trace.
   */
  private SpanBuilder runSpanBuilder(
      UUID runId, UUID rootRunId, String flow, Instant at, String traceparent) {
    SpanBuilder builder =
        tracer
            .spanBuilder("run " + flow)
            .setSpanKind(SpanKind.INTERNAL)
            .setStartTimestamp(at)
            .setAttribute(RUN_ID, runId.toString())
            .setAttribute(ROOT_RUN_ID, rootRunId.toString())
            .setAttribute(FLOW, flow)
            .setAttribute(NODE, nodeId);
    Optional<TraceParent> caller = caller(traceparent);
    if (caller.isPresent()) {
      builder.setParent(Context.root().with(Span.wrap(remote(caller.get()))));
    } else {
      builder.setNoParent();
    }
    return builder;
  }

  private static String traceIdOf(UUID rootRunId, TreeTrace trace) {
    return caller(trace.traceparent())
        .map(TraceParent::traceId)
        .orElseGet(() -> TraceIds.traceIdOf(rootRunId));
  }

  /** The caller's context; a stored value that does not parse traces as if there were none. */
  private static Optional<TraceParent> caller(String traceparent) {
    try {
      return TraceParent.parse(traceparent);
    } catch (IllegalArgumentException invalid) {
      return Optional.empty();
    }
  }

  private static SpanContext remote(TraceParent caller) {
    return SpanContext.createFromRemoteParent(
        caller.traceId(),
        caller.parentId(),
        TraceFlags.fromHex(caller.flags(), 0),
        TraceState.getDefault());
  }

  /** Ends the spans of runs this node still holds (at shutdown: their hand-off). */
  public void endAll(Instant at) {
    runs.forEach(
        (id, span) -> {
          span.setAttribute(STATUS, "HANDED_OFF");
          span.end(at);
        });
    runs.clear();
  }
}

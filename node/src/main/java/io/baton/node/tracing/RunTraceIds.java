package io.baton.node.tracing;

import io.baton.trace.TraceIds;
import io.opentelemetry.sdk.trace.IdGenerator;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Ids for the spans of run trees. While {@link #building} makes a span, a new trace's id is the
 * root run id's 128 bits (so every node that executes an untraced tree writes into one trace) and
 * the span's id may be given (one every node derives alike, see {@link TraceIds}); every other id
 * is random. Thread-safe.
 */
public final class RunTraceIds implements IdGenerator {
  private final IdGenerator random = IdGenerator.random();
  private static final ThreadLocal<UUID> ROOT = new ThreadLocal<>();
  private static final ThreadLocal<String> SPAN = new ThreadLocal<>();

  /** The trace id of a run tree no caller traced: its root run id as 32 hex digits. */
  public static String traceIdOf(UUID rootRunId) {
    return TraceIds.traceIdOf(rootRunId);
  }

  <T> T inTraceOf(UUID rootRunId, Supplier<T> build) {
    return building(rootRunId, null, build);
  }

  /**
   * Runs {@code build} with a new trace's id from {@code rootRunId} and the next span id {@code
   * spanId}; either may be null for a random one.
   */
  <T> T building(UUID rootRunId, String spanId, Supplier<T> build) {
    ROOT.set(rootRunId);
    SPAN.set(spanId);
    try {
      return build.get();
    } finally {
      ROOT.remove();
      SPAN.remove();
    }
  }

  @Override
  public String generateSpanId() {
    String given = SPAN.get();
    if (given != null) {
      SPAN.remove();
      return given;
    }
    return random.generateSpanId();
  }

  @Override
  public String generateTraceId() {
    UUID tree = ROOT.get();
    return tree == null ? random.generateTraceId() : traceIdOf(tree);
  }
}

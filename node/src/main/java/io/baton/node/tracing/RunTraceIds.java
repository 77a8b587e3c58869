package io.baton.node.tracing;

import io.opentelemetry.sdk.trace.IdGenerator;
import java.util.Locale;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Trace ids for run trees: while {@link #inTraceOf} builds a span, a new trace's id is the root run
 * id's 128 bits, so every node that executes a tree (before and after a failover) writes into the
 * same trace; every other id is random. Thread-safe.
 */
public final class RunTraceIds implements IdGenerator {
  private final IdGenerator random = IdGenerator.random();
  private static final ThreadLocal<UUID> ROOT = new ThreadLocal<>();

  /** The trace id of a run tree: its root run id as 32 hex digits. */
  public static String traceIdOf(UUID rootRunId) {
    return String.format(
        Locale.ROOT,
        "%016x%016x",
        rootRunId.getMostSignificantBits(),
        rootRunId.getLeastSignificantBits());
  }

  <T> T inTraceOf(UUID rootRunId, Supplier<T> build) {
    ROOT.set(rootRunId);
    try {
      return build.get();
    } finally {
      ROOT.remove();
    }
  }

  @Override
  public String generateSpanId() {
    return random.generateSpanId();
  }

  @Override
  public String generateTraceId() {
    UUID tree = ROOT.get();
    return tree == null ? random.generateTraceId() : traceIdOf(tree);
  }
}

package io.baton.trace;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;

/**
 * The ids of a run tree's trace, derived from what the journal holds, so every node computes the
 * same ones without telling any other: the trace id of an untraced tree (its root run id), the span
 * id of a step attempt (what its {@code http} request names as parent before the span exists) and
 * the span id of a node's ownership of a run (what the next owner's span links to). Pure functions;
 * thread-safe.
 */
public final class TraceIds {
  private TraceIds() {}

  /** The trace id of a run tree no caller traced: its root run id's 128 bits as 32 hex digits. */
  public static String traceIdOf(UUID rootRunId) {
    return String.format(
        Locale.ROOT,
        "%016x%016x",
        rootRunId.getMostSignificantBits(),
        rootRunId.getLeastSignificantBits());
  }

  /**
   * The trace of a run tree: the caller's when one was given on submit ({@code traceparent}, may be
   * null), else the root run id's.
   */
  public static String traceIdOf(UUID rootRunId, String traceparent) {
    return TraceParent.parse(traceparent)
        .map(TraceParent::traceId)
        .orElseGet(() -> traceIdOf(rootRunId));
  }

  /** The span of one attempt of one step: the same on every node and after every recovery. */
  public static String stepSpanId(UUID runId, String step, int attempt) {
    return spanId("step/" + runId + "/" + step + "/" + attempt);
  }

  /**
   * The first span of a run on the node whose claim of its tree was journaled with {@code token} at
   * {@code claimedAt}: the claim record names it for every later owner.
   */
  public static String runSpanId(UUID runId, long token, Instant claimedAt) {
    return spanId("run/" + runId + "/" + token + "/" + claimedAt);
  }

  /**
   * The traceparent an attempt's outgoing calls carry: the tree's trace, the attempt's span as
   * parent, the caller's sampling (sampled for a tree of Baton's own).
   */
  public static TraceParent ofAttempt(
      UUID rootRunId, String traceparent, UUID runId, String step, int attempt) {
    String span = stepSpanId(runId, step, attempt);
    return TraceParent.parse(traceparent)
        .map(caller -> caller.withParent(span))
        .orElseGet(() -> TraceParent.sampled(traceIdOf(rootRunId), span));
  }

  private static String spanId(String name) {
    byte[] digest;
    try {
      digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
    // An all-zero span id is invalid; a digest whose first eight bytes are zero gets a one.
    boolean zero = true;
    for (int i = 0; i < 8; i++) {
      zero &= digest[i] == 0;
    }
    if (zero) {
      digest[7] = 1;
    }
    return HexFormat.of().formatHex(digest, 0, 8);
  }
}

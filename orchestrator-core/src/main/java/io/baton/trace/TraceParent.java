package io.baton.trace;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A W3C Trace Context {@code traceparent}: {@code version-traceId-parentId-flags}, e.g. {@code
 * 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01}. Parsing follows the W3C rules: lower-
 * case hex, neither id all zeros, version {@code ff} invalid, a later version read by its first
 * four fields. Immutable; {@link #toString()} is the header value (version {@code 00}).
 *
 * @param traceId 32 lower-case hex digits, not all zeros
 * @param parentId the caller's span: 16 lower-case hex digits, not all zeros
 * @param flags two hex digits; bit 0 is "sampled"
 */
public record TraceParent(String traceId, String parentId, String flags) {
  /** The header (and CloudEvents extension attribute) that carries it. */
  public static final String HEADER = "traceparent";

  private static final Pattern TRACE_ID = Pattern.compile("[0-9a-f]{32}");
  private static final Pattern SPAN_ID = Pattern.compile("[0-9a-f]{16}");
  private static final Pattern FLAGS = Pattern.compile("[0-9a-f]{2}");
  private static final String SAMPLED = "01";

  public TraceParent {
    require(traceId, TRACE_ID, "trace id", 32);
    require(parentId, SPAN_ID, "parent id", 16);
    require(flags, FLAGS, "flags", 2);
  }

  /** The context of a span this node derived: same trace, sampled as the caller said. */
  public TraceParent withParent(String spanId) {
    return new TraceParent(traceId, spanId, flags);
  }

  /** A new trace of Baton's own: sampled. */
  public static TraceParent sampled(String traceId, String spanId) {
    return new TraceParent(traceId, spanId, SAMPLED);
  }

  public boolean isSampled() {
    return (Integer.parseInt(flags, 16) & 1) == 1;
  }

  /**
   * Reads a header value; null or blank is empty.
   *
   * @throws IllegalArgumentException it is not a valid traceparent; the message says why
   */
  public static Optional<TraceParent> parse(String value) {
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    String text = value.trim();
    String[] parts = text.split("-", -1);
    if (parts.length < 4 || parts[0].length() != 2 || !FLAGS.matcher(parts[0]).matches()) {
      throw invalid(text, "expected version-traceid-parentid-flags, e.g. " + example());
    }
    if (parts[0].equals("ff")) {
      throw invalid(text, "version ff is not allowed");
    }
    if (parts[0].equals("00") && parts.length != 4) {
      throw invalid(text, "version 00 has exactly four fields");
    }
    try {
      return Optional.of(new TraceParent(parts[1], parts[2], parts[3]));
    } catch (IllegalArgumentException e) {
      throw invalid(text, e.getMessage());
    }
  }

  private static IllegalArgumentException invalid(String text, String why) {
    return new IllegalArgumentException("invalid traceparent '" + text + "': " + why);
  }

  private static String example() {
    return "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  }

  private static void require(String value, Pattern pattern, String name, int digits) {
    Objects.requireNonNull(value, name);
    if (!pattern.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "the " + name + " must be " + digits + " lower-case hex digits, got '" + value + "'");
    }
    if (value.chars().allMatch(c -> c == '0') && digits > 2) {
      throw new IllegalArgumentException("the " + name + " must not be all zeros");
    }
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "00-%s-%s-%s", traceId, parentId, flags);
  }
}

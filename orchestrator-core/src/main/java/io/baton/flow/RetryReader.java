package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Reads a step's {@code retry} block into a {@link RetryPolicy}, defaults filled in. */
final class RetryReader {
  static final List<String> KEYS =
      List.of("maxAttempts", "delay", "backoff", "maxDelay", "jitter", "retryOn");
  private static final Map<String, Backoff> BACKOFF = new LinkedHashMap<>();

  static {
    BACKOFF.put("fixed", Backoff.FIXED);
    BACKOFF.put("linear", Backoff.LINEAR);
    BACKOFF.put("exponential", Backoff.EXPONENTIAL);
  }

  private final Report report;
  private final Fields fields;

  RetryReader(Report report, Fields fields) {
    this.report = report;
    this.fields = fields;
  }

  /** The policy, or {@link RetryPolicy#NONE} without a block. */
  RetryPolicy read(JsonNode step, String stepPath) {
    JsonNode retry = Fields.present(step, "retry");
    if (retry == null) {
      return RetryPolicy.NONE;
    }
    String path = FieldPaths.key(stepPath, "retry");
    if (!retry.isObject()) {
      fields.wrongType(path, "retry", "a mapping such as {maxAttempts: 3}", retry);
      return RetryPolicy.NONE;
    }
    fields.allowOnly(retry, path, KEYS, "retry");
    Integer maxAttempts = fields.count(retry, path, "maxAttempts");
    Duration delay = fields.duration(retry, path, "delay", true);
    Backoff backoff = fields.choice(retry, path, "backoff", BACKOFF);
    Duration maxDelay = fields.duration(retry, path, "maxDelay", false);
    Boolean jitter = fields.bool(retry, path, "jitter");
    List<String> retryOn = fields.texts(retry, path, "retryOn");
    checkCap(path, delay, maxDelay);
    // Wrong values are reported and replaced by defaults: a flow with problems is never built.
    return new RetryPolicy(
        maxAttempts == null ? RetryPolicy.DEFAULT_MAX_ATTEMPTS : maxAttempts,
        delay == null ? RetryPolicy.DEFAULT_DELAY : delay,
        backoff == null ? Backoff.FIXED : backoff,
        maxDelay,
        jitter != null && jitter,
        retryOn == null ? List.of() : retryOn.stream().filter(Objects::nonNull).toList());
  }

  private void checkCap(String path, Duration delay, Duration maxDelay) {
    if (delay != null && maxDelay != null && maxDelay.compareTo(delay) < 0) {
      report.atValue(
          FieldPaths.key(path, "maxDelay"),
          "maxDelay is shorter than delay, so every wait would be maxDelay: raise maxDelay or"
              + " lower delay");
    }
  }
}

package io.baton.capability;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

/**
 * One attempt of one step.
 *
 * @param params the step's params with every template rendered
 * @param attempt counted from 1, the first attempt included; keeps counting after a resume
 * @param deadline when the attempt times out (the engine then cancels it), or null for none
 * @param idempotencyKey {@code runId/stepName}: the same for every attempt and every recovery
 * @param clock the engine's clock; capabilities never read the system clock
 * @param traceparent the W3C trace context outgoing calls of this attempt carry (the run's trace,
 *     the attempt's span as parent), or null when the run is not traced
 */
public record Invocation(
    UUID runId,
    String stepName,
    String operation,
    JsonNode params,
    int attempt,
    Instant deadline,
    Cancellation cancellation,
    String idempotencyKey,
    Clock clock,
    String traceparent) {

  /** An attempt of a run that is not traced. */
  public Invocation(
      UUID runId,
      String stepName,
      String operation,
      JsonNode params,
      int attempt,
      Instant deadline,
      Cancellation cancellation,
      String idempotencyKey,
      Clock clock) {
    this(
        runId,
        stepName,
        operation,
        params,
        attempt,
        deadline,
        cancellation,
        idempotencyKey,
        clock,
        null);
  }

  public static String idempotencyKey(UUID runId, String stepName) {
    return runId + "/" + stepName;
  }
}

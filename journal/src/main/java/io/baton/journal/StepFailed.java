package io.baton.journal;

import java.time.Instant;
import java.util.Objects;

/**
 * An attempt of a step failed.
 *
 * @param retryAt when the next attempt is due (durable back-off), or null when the step has failed
 *     for good
 */
public record StepFailed(
    String step,
    int attempt,
    String errorCode,
    String message,
    boolean retryable,
    Instant retryAt,
    Instant startedAt)
    implements JournalEvent {
  public StepFailed {
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(errorCode, "errorCode");
    message = message == null ? "" : message;
    retryAt = Instants.micros(retryAt);
    startedAt = Instants.micros(startedAt);
  }

  public ErrorInfo error() {
    return new ErrorInfo(errorCode, message);
  }

  public boolean willRetry() {
    return retryAt != null;
  }
}

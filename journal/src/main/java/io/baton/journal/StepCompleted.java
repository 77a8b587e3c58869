package io.baton.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.time.Instant;
import java.util.Objects;

/**
 * An attempt of a step succeeded. Journaled at most once per run and step.
 *
 * @param emitted the events the step emitted, as CloudEvents envelopes (a JSON list), or null for
 *     none: the stores put them in their event outbox in the transaction of this entry's append, so
 *     they exist exactly when the completion does
 */
public record StepCompleted(
    String step, int attempt, JsonNode output, Instant startedAt, JsonNode emitted)
    implements JournalEvent {
  public StepCompleted {
    Objects.requireNonNull(step, "step");
    output = output == null ? NullNode.getInstance() : output;
    startedAt = Instants.micros(startedAt);
    emitted = emitted == null || !emitted.isArray() || emitted.isEmpty() ? null : emitted;
  }

  /** A completion that emitted no events. */
  public StepCompleted(String step, int attempt, JsonNode output, Instant startedAt) {
    this(step, attempt, output, startedAt, null);
  }
}

package io.baton.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.time.Instant;
import java.util.Objects;

/** An attempt of a step succeeded. Journaled at most once per run and step. */
public record StepCompleted(String step, int attempt, JsonNode output, Instant startedAt)
    implements JournalEvent {
  public StepCompleted {
    Objects.requireNonNull(step, "step");
    output = output == null ? NullNode.getInstance() : output;
    startedAt = Instants.micros(startedAt);
  }
}

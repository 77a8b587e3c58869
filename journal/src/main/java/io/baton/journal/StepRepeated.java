package io.baton.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.time.Instant;
import java.util.Objects;

/**
 * An iteration of a repeating step succeeded and its {@code until} condition did not hold yet: the
 * step runs again, as iteration {@code iteration + 1}, at {@code nextAt} (null: at once). The
 * iteration's output stays readable as the step's output until the next one.
 *
 * @param attempt the attempt that ran the iteration (attempt numbers keep counting across
 *     iterations; each iteration gets a fresh retry budget)
 * @param iteration the iteration that finished, from 1
 */
public record StepRepeated(
    String step, int attempt, int iteration, JsonNode output, Instant startedAt, Instant nextAt)
    implements JournalEvent {
  public StepRepeated {
    Objects.requireNonNull(step, "step");
    if (iteration < 1) {
      throw new IllegalArgumentException("iterations count from 1: " + iteration);
    }
    output = output == null ? NullNode.getInstance() : output;
    startedAt = Instants.micros(startedAt);
    nextAt = Instants.micros(nextAt);
  }
}

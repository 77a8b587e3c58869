package io.baton.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.UUID;

/**
 * A request waiting in a run tree's inbox until the tree's owner applies it.
 *
 * @param step the approval step it answers, or null for any waiting approval (and for CANCEL); for
 *     RETRY_NOW the step whose back-off it ends
 * @param payload who sent it and why, or JSON null
 */
public record Signal(
    long id,
    UUID rootRunId,
    UUID runId,
    SignalType type,
    String step,
    JsonNode payload,
    Instant createdAt) {
  public Signal {
    Objects.requireNonNull(rootRunId, "rootRunId");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(type, "type");
    payload = payload == null ? NullNode.getInstance() : payload;
    createdAt = createdAt.truncatedTo(ChronoUnit.MICROS);
  }
}

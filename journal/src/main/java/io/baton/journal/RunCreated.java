package io.baton.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Objects;
import java.util.UUID;

/**
 * A run was created: a root run (no parent) starts a new journal, a subflow run is created inside
 * its root's journal by the parent's {@code parentStep}. The flow is pinned by its content hash.
 *
 * @param trigger the event that started the run, or JSON null
 * @param idempotencyKey the submitter's key, unique among root runs, or null
 */
public record RunCreated(
    String flowName,
    String flowHash,
    JsonNode input,
    UUID parentRunId,
    String parentStep,
    String idempotencyKey,
    JsonNode trigger)
    implements JournalEvent {
  public RunCreated {
    Objects.requireNonNull(flowName, "flowName");
    Objects.requireNonNull(flowHash, "flowHash");
    input = input == null ? NullNode.getInstance() : input;
    trigger = trigger == null ? NullNode.getInstance() : trigger;
  }

  public static RunCreated root(String flowName, String flowHash, JsonNode input) {
    return new RunCreated(flowName, flowHash, input, null, null, null, null);
  }
}

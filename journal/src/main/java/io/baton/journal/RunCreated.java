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
 * @param traceparent the W3C trace context the run continues (given on submit or carried by the
 *     triggering event), or null: the run tree's spans join that trace. Absent from older entries
 *     and not written when null, so entries with and without it read the same way
 */
public record RunCreated(
    String flowName,
    String flowHash,
    JsonNode input,
    UUID parentRunId,
    String parentStep,
    String idempotencyKey,
    JsonNode trigger,
    String traceparent)
    implements JournalEvent {
  public RunCreated {
    Objects.requireNonNull(flowName, "flowName");
    Objects.requireNonNull(flowHash, "flowHash");
    input = input == null ? NullNode.getInstance() : input;
    trigger = trigger == null ? NullNode.getInstance() : trigger;
  }

  /** A run that continues no caller's trace. */
  public RunCreated(
      String flowName,
      String flowHash,
      JsonNode input,
      UUID parentRunId,
      String parentStep,
      String idempotencyKey,
      JsonNode trigger) {
    this(flowName, flowHash, input, parentRunId, parentStep, idempotencyKey, trigger, null);
  }

  public static RunCreated root(String flowName, String flowHash, JsonNode input) {
    return new RunCreated(flowName, flowHash, input, null, null, null, null);
  }
}

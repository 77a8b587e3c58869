package io.baton.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.baton.journal.ErrorInfo;
import io.baton.journal.RunStatus;
import io.baton.journal.RunWait;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A run as the metadata store keeps it: the row that the journal's appends project (see {@link
 * RunProjection}). {@code orchestratorId} is a hint (the owner as last recorded, healed by the
 * claimer); {@code ownerToken} on a root row is the journal's fence.
 *
 * @param wakeAt for a WAITING root: when it becomes claimable again (a due timer or a signal)
 * @param waiting for a WAITING run: what it waits for, as the engine recorded it when it parked the
 *     run (null otherwise, and for runs parked before it was recorded)
 * @param triggerEvent the event whose trigger started this run (null: not started by an event)
 */
public record RunRecord(
    UUID runId,
    UUID rootRunId,
    UUID parentRunId,
    String parentStep,
    String flowName,
    String flowHash,
    RunStatus status,
    String statusReason,
    JsonNode input,
    JsonNode output,
    ErrorInfo error,
    boolean recoverable,
    String orchestratorId,
    long ownerToken,
    Instant wakeAt,
    String idempotencyKey,
    Instant createdAt,
    Instant updatedAt,
    RunWait waiting,
    EventRef triggerEvent) {
  public RunRecord {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(rootRunId, "rootRunId");
    Objects.requireNonNull(status, "status");
    statusReason = statusReason == null ? "" : statusReason;
    input = input == null ? NullNode.getInstance() : input;
    output = output == null ? NullNode.getInstance() : output;
  }

  public boolean isRoot() {
    return parentRunId == null;
  }

  RunRecord withStatus(RunStatus status, String reason, boolean recoverable, Instant at) {
    return new RunRecord(
        runId,
        rootRunId,
        parentRunId,
        parentStep,
        flowName,
        flowHash,
        status,
        reason,
        input,
        output,
        error,
        recoverable,
        orchestratorId,
        ownerToken,
        wakeAt,
        idempotencyKey,
        createdAt,
        at,
        waiting,
        triggerEvent);
  }

  RunRecord withOutcome(JsonNode output, ErrorInfo error) {
    return new RunRecord(
        runId,
        rootRunId,
        parentRunId,
        parentStep,
        flowName,
        flowHash,
        status,
        statusReason,
        input,
        output,
        error,
        recoverable,
        orchestratorId,
        ownerToken,
        wakeAt,
        idempotencyKey,
        createdAt,
        updatedAt,
        waiting,
        triggerEvent);
  }

  /** The same row with another owner (and token, for a claim). */
  public RunRecord withOwner(String orchestratorId, long ownerToken) {
    return new RunRecord(
        runId,
        rootRunId,
        parentRunId,
        parentStep,
        flowName,
        flowHash,
        status,
        statusReason,
        input,
        output,
        error,
        recoverable,
        orchestratorId,
        ownerToken,
        wakeAt,
        idempotencyKey,
        createdAt,
        updatedAt,
        waiting,
        triggerEvent);
  }

  /** The same row with another wake time. */
  public RunRecord withWakeAt(Instant wakeAt) {
    return new RunRecord(
        runId,
        rootRunId,
        parentRunId,
        parentStep,
        flowName,
        flowHash,
        status,
        statusReason,
        input,
        output,
        error,
        recoverable,
        orchestratorId,
        ownerToken,
        wakeAt,
        idempotencyKey,
        createdAt,
        updatedAt,
        waiting,
        triggerEvent);
  }

  /** The same row with another wait (null: waits for nothing). */
  public RunRecord withWaiting(RunWait waiting) {
    return new RunRecord(
        runId,
        rootRunId,
        parentRunId,
        parentStep,
        flowName,
        flowHash,
        status,
        statusReason,
        input,
        output,
        error,
        recoverable,
        orchestratorId,
        ownerToken,
        wakeAt,
        idempotencyKey,
        createdAt,
        updatedAt,
        waiting,
        triggerEvent);
  }
}

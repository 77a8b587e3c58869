package io.baton.engine;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.ClaimReason;
import io.baton.journal.RunStatus;
import io.baton.journal.replay.ClaimRecord;
import java.time.Instant;
import java.util.UUID;

/** What a node tells its listeners (the HTTP event stream) once it is journaled. */
public sealed interface RunEvent {
  UUID runId();

  Instant at();

  /**
   * What a tracer needs to know of the run's tree when the event is journaled (not part of the
   * event stream's JSON).
   *
   * @param rootFlow the flow of the tree's root run
   * @param traceparent the caller's trace context the tree continues, or null
   * @param owner the claim under which the tree runs here now, or null when none is journaled
   * @param previousOwner the claim before it, or null
   */
  record TreeTrace(
      String rootFlow, String traceparent, ClaimRecord owner, ClaimRecord previousOwner) {
    public static final TreeTrace NONE = new TreeTrace("?", null, null, null);
  }

  /** A run's status changed. */
  record StatusChanged(
      UUID runId,
      UUID rootRunId,
      String flow,
      RunStatus status,
      String reason,
      Instant at,
      @JsonIgnore TreeTrace trace)
      implements RunEvent {}

  /** A step waits for a person's approval (emitted again by startup recovery for parked runs). */
  record ApprovalRequested(UUID runId, UUID rootRunId, String step, JsonNode prompt, Instant at)
      implements RunEvent {}

  /**
   * An attempt of a step ended, as journaled: for traces. Only attempts whose start is known (the
   * journal holds it with the outcome).
   *
   * @param errorCode the failure's code; null when the attempt succeeded
   */
  record StepFinished(
      UUID runId,
      UUID rootRunId,
      String flow,
      String step,
      String capability,
      int attempt,
      boolean succeeded,
      String errorCode,
      Instant startedAt,
      Instant at,
      @JsonIgnore TreeTrace trace)
      implements RunEvent {}

  /** A node took ownership of a run tree. */
  record Claimed(
      UUID runId,
      String node,
      String previousNode,
      ClaimReason reason,
      long token,
      Instant at,
      @JsonIgnore TreeTrace trace)
      implements RunEvent {}
}

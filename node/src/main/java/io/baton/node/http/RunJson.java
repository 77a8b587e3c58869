package io.baton.node.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.baton.engine.RunView;
import io.baton.engine.StepView;
import io.baton.journal.ErrorInfo;
import io.baton.journal.RunStatus;
import io.baton.journal.replay.ClaimRecord;
import io.baton.journal.replay.CommandRecord;
import io.baton.store.RunRecord;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A run as the API shows it. Lists and commands answer with the summary; {@code GET /api/runs/{id}}
 * adds {@code steps}, {@code children} (subflow run ids), {@code ownership} (every claim, oldest
 * first) and {@code commands} (every command that changed the run: {@code command, by, via, reason,
 * at}, oldest first).
 */
public record RunJson(
    UUID id,
    String flow,
    String flowHash,
    RunStatus status,
    String statusReason,
    JsonNode input,
    JsonNode output,
    ErrorInfo error,
    boolean recoverable,
    String orchestratorId,
    UUID parentRunId,
    String parentStep,
    UUID rootRunId,
    Instant createdAt,
    Instant updatedAt,
    Instant wakeAt,
    String idempotencyKey,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<StepView> steps,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<UUID> children,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<ClaimRecord> ownership,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<CommandRecord> commands) {

  public static RunJson summary(RunRecord run) {
    return of(run, null, null, null, null);
  }

  public static RunJson detail(RunView view) {
    return of(view.run(), view.steps(), view.children(), view.ownership(), view.commands());
  }

  private static RunJson of(
      RunRecord run,
      List<StepView> steps,
      List<UUID> children,
      List<ClaimRecord> ownership,
      List<CommandRecord> commands) {
    return new RunJson(
        run.runId(),
        run.flowName(),
        run.flowHash(),
        run.status(),
        run.statusReason(),
        run.input(),
        run.output(),
        run.error(),
        run.recoverable(),
        run.orchestratorId(),
        run.parentRunId(),
        run.parentStep(),
        run.rootRunId(),
        run.createdAt(),
        run.updatedAt(),
        run.wakeAt(),
        run.idempotencyKey(),
        steps,
        children,
        ownership,
        commands);
  }
}

package io.baton.node.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.engine.CommandOrigin;
import io.baton.engine.Orchestrator;
import io.baton.node.auth.Principal;
import io.baton.retention.RunDiscarder;
import io.baton.store.RunRecord;
import io.baton.store.SignalType;
import io.javalin.http.Context;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * {@code POST /api/runs/{id}/cancel | resume | approve | reject}, {@code POST
 * /api/runs/{id}/steps/{step}/retry-now} and {@code DELETE /api/runs/{id}} (discard), each with an
 * optional JSON body ({@code by}, {@code reason}; approve and reject also {@code step} and {@code
 * comment}, which is the reason). With authentication on, who acted is the caller's key, whatever
 * {@code by} says; the command is journaled with who, how and why ({@code CommandApplied}). Answers
 * 200 with the run once its owner applied the command (or after {@link Orchestrator#SIGNAL_WAIT}),
 * 404 for an unknown run (or step) and 409 with the reason when the run's status does not allow the
 * command.
 */
final class RunActionRoutes implements Routes {
  static final String DEFAULT_ACTOR = "api";
  private static final List<String> REASON_FIELDS = List.of("by", "reason");
  private static final List<String> ANSWER_FIELDS = List.of("by", "step", "comment", "reason");

  private final Orchestrator orchestrator;
  private final RunDiscarder discarder;

  RunActionRoutes(Orchestrator orchestrator, RunDiscarder discarder) {
    this.orchestrator = orchestrator;
    this.discarder = discarder;
  }

  @Override
  public void addTo(ApiRouter routes) {
    document(
        routes.post(
            "/api/runs/{id}/cancel",
            ctx ->
                act(ctx, REASON_FIELDS, (id, cmd) -> orchestrator.cancelAsync(id, cmd.origin()))),
        Permission.RUNS_CANCEL,
        "Cancel a pending, running or waiting run");
    document(
        routes.post(
            "/api/runs/{id}/resume",
            ctx ->
                act(ctx, REASON_FIELDS, (id, cmd) -> orchestrator.resumeAsync(id, cmd.origin()))),
        Permission.RUNS_RESUME,
        "Resume a recoverable failed run");
    document(
        routes.post(
            "/api/runs/{id}/approve", ctx -> act(ctx, ANSWER_FIELDS, answer(SignalType.APPROVE))),
        Permission.RUNS_ANSWER,
        "Approve a run's waiting approval step");
    document(
        routes.post(
            "/api/runs/{id}/reject", ctx -> act(ctx, ANSWER_FIELDS, answer(SignalType.REJECT))),
        Permission.RUNS_ANSWER,
        "Reject a run's waiting approval step");
    routes
        .post("/api/runs/{id}/steps/{step}/retry-now", this::retryNow)
        .permission(Permission.RUNS_RESUME, FlowScope.RUN)
        .summary(
            "Retry a step in back-off now: its next attempt, due later after a failed one, starts"
                + " at once (same attempt count, same maxAttempts)")
        .responds(
            200, "the run once its owner started the step's next attempt",
            400, "a bad run id or body",
            404, "no such run, or its flow has no such step",
            409, "the run is finished, or the step is not waiting to retry a failed attempt");
    routes
        .delete("/api/runs/{id}", this::discard)
        .permission(Permission.RUNS_DISCARD, FlowScope.RUN)
        .summary(
            "Discard a run that is not live (a recoverable failure, or any finished run): its"
                + " tree is deleted with its journal at once; who and why go to the audit log")
        .responds(
            204, "the run and its tree are deleted",
            400, "a bad run id or body",
            404, "no such run",
            409, "the run is live (pending, running, waiting) or a subflow");
  }

  private void retryNow(Context ctx) throws Exception {
    String step = ctx.pathParam("step");
    act(ctx, REASON_FIELDS, (id, cmd) -> orchestrator.retryNowAsync(id, step, cmd.origin()));
  }

  private void discard(Context ctx) throws Exception {
    UUID runId = Requests.runId(ctx);
    Command command =
        Command.of(Requests.jsonObject(ctx, REASON_FIELDS), AccessGuard.principal(ctx));
    ctx.future(
        () -> discarder.discard(runId, command.origin()).thenAccept(done -> ctx.status(204)));
  }

  private static void document(ApiOperation operation, Permission permission, String summary) {
    operation
        .permission(permission, FlowScope.RUN)
        .summary(summary)
        .responds(
            200, "the run once its owner applied the command",
            400, "a bad run id or body",
            404, "no such run",
            409, "the run's status does not allow the command");
  }

  /** What the body asked, checked before anything runs. */
  private record Command(CommandOrigin origin, String step) {
    /** An authenticated caller is who acted, whatever the body says. */
    static Command of(ObjectNode body, Principal principal) {
      String by = Requests.optionalText(body, "by");
      if (principal.authenticated()) {
        by = principal.name();
      }
      String reason = Requests.optionalText(body, "comment");
      if (reason == null) {
        reason = Requests.optionalText(body, "reason");
      }
      return new Command(
          new CommandOrigin(
              by == null || by.isBlank() ? DEFAULT_ACTOR : by,
              principal.via().displayName(),
              reason),
          Requests.optionalText(body, "step"));
    }
  }

  private interface Action {
    CompletableFuture<RunRecord> apply(UUID runId, Command command);
  }

  private Action answer(SignalType type) {
    return (id, cmd) -> orchestrator.answerAsync(id, type, cmd.step(), cmd.origin());
  }

  private static void act(Context ctx, List<String> fields, Action action) throws Exception {
    UUID runId = Requests.runId(ctx);
    Command command = Command.of(Requests.jsonObject(ctx, fields), AccessGuard.principal(ctx));
    ctx.future(
        () ->
            action
                .apply(runId, command)
                .thenAccept(run -> Json.send(ctx, 200, RunJson.summary(run))));
  }
}

package io.baton.node.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.engine.CommandOrigin;
import io.baton.engine.Orchestrator;
import io.baton.node.auth.Principal;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.List;
import java.util.UUID;

/**
 * {@code POST /api/runs} (submit; 201 when created, 200 when the idempotency key named an existing
 * run), {@code GET /api/runs} (filtered list, newest first), {@code GET /api/runs/{id}} (with
 * steps, subflows and ownership history) and {@code GET /api/runs/{id}/journal}.
 */
final class RunRoutes implements Routes {
  private static final List<String> SUBMIT_FIELDS = List.of("flow", "input", "idempotencyKey");

  private final Orchestrator orchestrator;

  RunRoutes(Orchestrator orchestrator) {
    this.orchestrator = orchestrator;
  }

  @Override
  public void addTo(RoutesConfig routes) {
    routes.post("/api/runs", this::submit);
    routes.get("/api/runs", this::list);
    routes.get("/api/runs/{id}", this::show);
    routes.get("/api/runs/{id}/journal", this::journal);
  }

  private void submit(Context ctx) throws Exception {
    ObjectNode body = Requests.jsonObject(ctx, SUBMIT_FIELDS);
    String flow = Requests.requiredText(body, "flow");
    AccessGuard.requireFlow(ctx, flow);
    String key = Requests.optionalText(body, "idempotencyKey");
    JsonNode input = body.hasNonNull("input") ? body.get("input") : Json.MAPPER.createObjectNode();
    ctx.future(
        () ->
            orchestrator
                .submitAsync(flow, input, key, null, origin(AccessGuard.principal(ctx)))
                .thenAccept(
                    submitted -> {
                      ctx.header("Location", "/api/runs/" + submitted.run().runId());
                      Json.send(
                          ctx, submitted.created() ? 201 : 200, RunJson.summary(submitted.run()));
                    }));
  }

  private static CommandOrigin origin(Principal principal) {
    return new CommandOrigin(principal.name(), principal.via().displayName(), null);
  }

  private void list(Context ctx) {
    List<RunJson> runs =
        orchestrator.list(RunQueryParams.from(ctx)).stream().map(RunJson::summary).toList();
    Json.send(ctx, 200, Json.object("runs", runs));
  }

  private void show(Context ctx) {
    Json.send(ctx, 200, RunJson.detail(orchestrator.get(Requests.runId(ctx))));
  }

  private void journal(Context ctx) {
    UUID runId = Requests.runId(ctx);
    List<JournalEntryJson> entries =
        orchestrator.journal(runId).stream().map(JournalEntryJson::of).toList();
    Json.send(ctx, 200, Json.object("runId", runId, "entries", entries));
  }
}

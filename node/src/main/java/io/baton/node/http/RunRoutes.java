package io.baton.node.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.engine.CommandOrigin;
import io.baton.engine.Orchestrator;
import io.baton.engine.RunNotFoundException;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import io.baton.node.auth.Principal;
import io.baton.store.RunIndex;
import io.baton.store.RunPage;
import io.baton.store.RunRecord;
import io.baton.trace.TraceParent;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * {@code POST /api/v1/runs} (submit; 201 when created, 200 when the idempotency key named an
 * existing run), {@code GET /api/v1/runs} (filtered, keyset-paged, newest first: {@code runs} and
 * the {@code next} cursor), {@code GET /api/v1/runs/{id}} (with steps, subflows, ownership history
 * and derived state) and {@code GET /api/v1/runs/{id}/journal} (paged by sequence: {@code after}
 * and {@code limit}, {@code next} to continue).
 */
final class RunRoutes implements Routes {
  static final int JOURNAL_PAGE = 500;
  static final int MAX_JOURNAL_PAGE = 5000;
  private static final List<String> SUBMIT_FIELDS = List.of("flow", "input", "idempotencyKey");

  private final Orchestrator orchestrator;
  private final RunIndex runIndex;
  private final ExecutionJournal journal;
  private final Supplier<Liveness> liveness;
  private final RequestLimits limits;

  RunRoutes(
      Orchestrator orchestrator,
      RunIndex runIndex,
      ExecutionJournal journal,
      Supplier<Liveness> liveness,
      RequestLimits limits) {
    this.limits = limits;
    this.orchestrator = orchestrator;
    this.runIndex = runIndex;
    this.journal = journal;
    this.liveness = liveness;
  }

  @Override
  public void addTo(ApiRouter routes) {
    routes
        .post("/api/runs", this::submit)
        .permission(Permission.RUNS_SUBMIT, FlowScope.BODY)
        .summary("Start a run of a flow (body: flow, input, idempotencyKey)")
        .header(
            TraceParent.HEADER,
            "a W3C trace context: the run's spans (on every node that executes it) and its http"
                + " steps' requests continue this trace")
        .responds(
            201, "the new run",
            200, "the run an earlier submission with the same idempotency key started",
            400, "a bad body or traceparent",
            404, "no flow of that name");
    ApiOperation list =
        routes
            .get("/api/runs", this::list)
            .permission(Permission.RUNS_READ, FlowScope.RUN_LIST)
            .summary("Runs, newest first, filtered and paged by an opaque cursor")
            .responds(200, "a page of runs and the next cursor", 400, "a bad parameter");
    RunListParams.DOCUMENTED.forEach(p -> list.query(p.name(), p.type(), p.description()));
    routes
        .get("/api/run-counts", this::counts)
        .permission(Permission.RUNS_READ)
        .summary("How many runs (roots and subflows) have each status")
        .responds(200, "a count per status");
    routes
        .get("/api/runs/{id}", this::show)
        .permission(Permission.RUNS_READ, FlowScope.RUN)
        .summary("A run with its steps, subflows, ownership history and derived state")
        .responds(200, "the run", 400, "a bad run id", 404, "no such run");
    routes
        .get("/api/runs/{id}/journal", this::journal)
        .permission(Permission.RUNS_READ, FlowScope.RUN)
        .summary("A run's journal entries in order, paged by sequence number")
        .query("after", "integer", "entries after this sequence number (default 0)")
        .query("limit", "integer", "page size, 1 to " + MAX_JOURNAL_PAGE + " (default 500)")
        .responds(200, "a page of entries", 400, "a bad parameter", 404, "no such run");
  }

  private void submit(Context ctx) throws Exception {
    ObjectNode body = Requests.jsonObject(ctx, SUBMIT_FIELDS);
    String flow = Requests.requiredText(body, "flow");
    AccessGuard.requireFlow(ctx, flow);
    String key = Requests.optionalText(body, "idempotencyKey");
    JsonNode input = body.hasNonNull("input") ? body.get("input") : Json.MAPPER.createObjectNode();
    String traceparent = Requests.traceparent(ctx.header(TraceParent.HEADER));
    RequestLimits.check(
        "The run's input",
        Json.MAPPER.writeValueAsBytes(input).length,
        limits.maxInputSize(),
        RequestLimits.MAX_INPUT_SIZE_KEY);
    ctx.future(
        () ->
            orchestrator
                .submitAsync(
                    flow, input, key, null, origin(AccessGuard.principal(ctx)), traceparent)
                .thenAccept(
                    submitted -> {
                      ctx.header("Location", "/api/v1/runs/" + submitted.run().runId());
                      Json.send(
                          ctx, submitted.created() ? 201 : 200, RunJson.summary(submitted.run()));
                    }));
  }

  private static CommandOrigin origin(Principal principal) {
    return new CommandOrigin(principal.name(), principal.via().displayName(), null);
  }

  private void list(Context ctx) {
    RunListParams params = RunListParams.from(ctx, liveness);
    RunPage page = runIndex.pageRuns(params.filter(), params.cursor(), params.limit());
    Liveness live = liveness.get();
    List<RunJson> runs = page.runs().stream().map(run -> RunJson.listed(run, live)).toList();
    Json.send(ctx, 200, Json.object("runs", runs, "next", Cursors.encode(page.next())));
  }

  private void counts(Context ctx) {
    Map<String, Long> counts = new LinkedHashMap<>();
    for (RunStatus status : RunStatus.values()) {
      counts.put(status.name(), 0L);
    }
    runIndex.countRunsByStatus().forEach((status, count) -> counts.put(status.name(), count));
    Json.send(ctx, 200, Json.object("counts", counts));
  }

  private void show(Context ctx) {
    Json.send(ctx, 200, RunJson.detail(orchestrator.get(Requests.runId(ctx)), liveness.get()));
  }

  private void journal(Context ctx) {
    UUID runId = Requests.runId(ctx);
    long after = sequence(ctx.queryParam("after"));
    int limit = JournalLimit.of(ctx.queryParam("limit"));
    RunRecord run = runIndex.findRun(runId).orElseThrow(() -> new RunNotFoundException(runId));
    List<JournalEntry> page = journal.readHistory(run.rootRunId(), after + 1, limit);
    List<JournalEntryJson> entries = new ArrayList<>();
    for (JournalEntry entry : page) {
      if (run.isRoot() || entry.runId().equals(runId)) {
        entries.add(JournalEntryJson.of(entry));
      }
    }
    Long next = page.size() < limit ? null : page.get(page.size() - 1).seq();
    Json.send(ctx, 200, Json.object("runId", runId, "entries", entries, "next", next));
  }

  private static long sequence(String text) {
    if (text == null || text.isBlank()) {
      return 0;
    }
    try {
      long after = Long.parseLong(text.trim());
      if (after >= 0) {
        return after;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new InvalidRequestException(
        "after must be a sequence number (0 or more), got '" + text + "'");
  }

  /** The journal page size parameter. */
  private static final class JournalLimit {
    static int of(String text) {
      if (text == null || text.isBlank()) {
        return JOURNAL_PAGE;
      }
      try {
        int limit = Integer.parseInt(text.trim());
        if (limit >= 1 && limit <= MAX_JOURNAL_PAGE) {
          return limit;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new InvalidRequestException(
          "limit must be a whole number from 1 to " + MAX_JOURNAL_PAGE + ", got '" + text + "'");
    }
  }
}

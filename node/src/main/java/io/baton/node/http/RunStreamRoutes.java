package io.baton.node.http;

import io.baton.journal.RunStatus;
import io.baton.store.RunPosition;
import io.baton.store.RunRecord;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.sse.SseHandler;
import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * {@code GET /api/v1/stream/runs}: the cluster-wide stream of run changes ({@link RunChangeFeed}).
 * Events {@code run} (a run as lists show it, with an {@code id}) and {@code reload}; filters
 * {@code flow}, {@code status} (several) and {@code root}; {@code Last-Event-ID} (or {@code
 * lastEventId}) replays what was missed. A key limited to flow patterns is sent only the runs it
 * may read ({@link FlowScope#RUN_STREAM}), so that {@code baton run --follow} works with it.
 */
final class RunStreamRoutes implements Routes {
  private final RunChangeFeed feed;

  RunStreamRoutes(RunChangeFeed feed) {
    this.feed = feed;
  }

  @Override
  public void addTo(ApiRouter routes) {
    routes
        .get("/api/stream/runs", this::open)
        .permission(Permission.RUNS_READ, FlowScope.RUN_STREAM)
        .summary(
            "Server-sent events of every run change in the cluster, with ids to resume from (a key"
                + " limited to flow patterns gets the runs it may read)")
        .query("flow", "string", "only runs of this flow")
        .query("status", "string", "only runs now in one of these statuses (comma-separated)")
        .query("root", "string", "only the runs of this tree")
        .query("lastEventId", "string", "as the Last-Event-ID header: replay what came after it")
        .produces(StreamRoutes.EVENT_STREAM)
        .responds(
            200, "the event stream", 400, "a bad parameter", 406, "Accept lacks text/event-stream");
  }

  private void open(Context ctx) {
    String accept = ctx.header("Accept");
    if (accept == null || !accept.contains(StreamRoutes.EVENT_STREAM)) {
      throw new HttpResponseException(
          406,
          "GET /api/v1/stream/runs sends server-sent events; ask with Accept: "
              + StreamRoutes.EVENT_STREAM);
    }
    Predicate<RunRecord> filter = filter(ctx).and(AccessGuard.readableRuns(ctx));
    String last = ctx.header("Last-Event-ID");
    RunPosition after =
        Cursors.decode(
            last == null ? ctx.queryParam("lastEventId") : last,
            last == null ? "lastEventId" : "Last-Event-ID");
    new SseHandler(client -> feed.subscribe(client, filter, after)).handle(ctx);
  }

  private static Predicate<RunRecord> filter(Context ctx) {
    String flow = ctx.queryParam("flow");
    Set<RunStatus> statuses = EnumSet.noneOf(RunStatus.class);
    String status = ctx.queryParam("status");
    if (status != null) {
      for (String part : status.split(",", -1)) {
        if (!part.isBlank()) {
          statuses.add(RunQueryParams.status(part));
        }
      }
    }
    UUID root = root(ctx.queryParam("root"));
    return run ->
        (flow == null || flow.isBlank() || flow.equals(run.flowName()))
            && (statuses.isEmpty() || statuses.contains(run.status()))
            && (root == null || root.equals(run.rootRunId()));
  }

  private static UUID root(String text) {
    if (text == null || text.isBlank()) {
      return null;
    }
    try {
      return UUID.fromString(text.trim());
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException("root must be a run id (a UUID), got '" + text + "'");
    }
  }
}

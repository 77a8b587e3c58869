package io.baton.node.http;

import io.baton.engine.RunEvent;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.sse.SseHandler;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * {@code GET /api/stream} ({@code Accept: text/event-stream}; {@code ?run=ID} keeps only the events
 * of that run tree): server-sent events {@code run-status}, {@code approval-requested} and {@code
 * run-claimed}, with JSON data, and a comment each heartbeat.
 */
final class StreamRoutes implements Routes {
  static final String EVENT_STREAM = "text/event-stream";

  private final EventStream stream;

  StreamRoutes(EventStream stream) {
    this.stream = stream;
  }

  @Override
  public void addTo(ApiRouter routes) {
    routes
        .get("/api/stream", this::open)
        .permission(Permission.RUNS_READ)
        .summary(
            "Server-sent events of this node's engine (run-status, approval-requested, run-claimed)")
        .query("run", "string", "only the events of this run's tree")
        .produces(EVENT_STREAM)
        .responds(
            200, "the event stream", 400, "a bad run id", 406, "Accept lacks text/event-stream");
  }

  private void open(Context ctx) {
    String accept = ctx.header("Accept");
    if (accept == null || !accept.contains(EVENT_STREAM)) {
      throw new HttpResponseException(
          406, "GET /api/stream sends server-sent events; ask with Accept: " + EVENT_STREAM);
    }
    Predicate<RunEvent> filter = filter(ctx.queryParam("run"));
    new SseHandler(client -> stream.subscribe(client, filter)).handle(ctx);
  }

  private static Predicate<RunEvent> filter(String run) {
    if (run == null || run.isBlank()) {
      return event -> true;
    }
    UUID runId;
    try {
      runId = UUID.fromString(run.trim());
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException("run must be a run id (a UUID), got '" + run + "'");
    }
    return event -> runId.equals(event.runId()) || runId.equals(rootOf(event));
  }

  private static UUID rootOf(RunEvent event) {
    if (event instanceof RunEvent.StatusChanged changed) {
      return changed.rootRunId();
    }
    if (event instanceof RunEvent.ApprovalRequested requested) {
      return requested.rootRunId();
    }
    return event.runId();
  }
}

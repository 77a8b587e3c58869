package io.baton.node.http;

import io.baton.journal.RunStatus;
import io.baton.store.RunQuery;
import io.javalin.http.Context;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** {@code ?status=&flow=&node=&limit=} of {@code GET /api/runs}, each bad value a 400. */
final class RunQueryParams {
  static final int MAX_LIMIT = 1000;

  private RunQueryParams() {}

  static RunQuery from(Context ctx) {
    RunQuery query = RunQuery.all();
    String status = ctx.queryParam("status");
    if (status != null && !status.isBlank()) {
      query = query.withStatus(status(status));
    }
    String flow = ctx.queryParam("flow");
    if (flow != null && !flow.isBlank()) {
      query = query.withFlow(flow);
    }
    String node = ctx.queryParam("node");
    if (node != null && !node.isBlank()) {
      query = query.withNode(node);
    }
    return query.withLimit(limit(ctx, RunQuery.DEFAULT_LIMIT));
  }

  static RunStatus status(String text) {
    try {
      return RunStatus.valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException(
          "status must be one of "
              + Arrays.stream(RunStatus.values()).map(Enum::name).collect(Collectors.joining(", "))
              + ", got '"
              + text
              + "'");
    }
  }

  /** The {@code limit} parameter: 1 to {@value #MAX_LIMIT}, or {@code fallback} when absent. */
  static int limit(Context ctx, int fallback) {
    String text = ctx.queryParam("limit");
    if (text == null || text.isBlank()) {
      return fallback;
    }
    try {
      int limit = Integer.parseInt(text.trim());
      if (limit >= 1 && limit <= MAX_LIMIT) {
        return limit;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new InvalidRequestException(
        "limit must be a whole number from 1 to " + MAX_LIMIT + ", got '" + text + "'");
  }
}

package io.baton.node.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.RunStatus;
import io.baton.store.EventRef;
import io.baton.store.InvalidJsonPathException;
import io.baton.store.JsonPathPredicate;
import io.baton.store.RunFilter;
import io.baton.store.RunPosition;
import io.baton.store.RunQuery;
import io.javalin.http.Context;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The query of {@code GET /api/v1/runs}: filters, {@code cursor} and {@code limit}, each bad value
 * a 400 that names the parameter. Statuses may repeat or be comma-separated; instants are ISO-8601;
 * {@code input} and {@code output} are JSON documents the run's must contain; {@code inputPath} and
 * {@code outputPath} are {@link JsonPathPredicate}s they must pass. A derived {@code state} narrows
 * further: {@code recoverable-failure} (FAILED and recoverable), {@code stuck} (RUNNING, recorded
 * owner not a live node, unchanged for {@code runs.stuckAfter}), or what a WAITING run waits for:
 * {@code retrying}, {@code waiting-approval}, {@code waiting-timer}, {@code waiting-child} (see
 * {@link DerivedState}).
 */
record RunListParams(RunFilter filter, DerivedState state, RunPosition cursor, int limit) {
  static final List<ApiOperation.Param> DOCUMENTED =
      List.of(
          new ApiOperation.Param(
              "status", "string", "one or more statuses, repeated or comma-separated"),
          new ApiOperation.Param("flow", "string", "the flow's name"),
          new ApiOperation.Param("node", "string", "the recorded owner node"),
          new ApiOperation.Param("parent", "string", "the parent run's id"),
          new ApiOperation.Param("root", "string", "the root run's id (the whole tree)"),
          new ApiOperation.Param("rootsOnly", "boolean", "leave subflow runs out"),
          new ApiOperation.Param("idempotencyKey", "string", "the submitter's key"),
          new ApiOperation.Param(
              "eventSource",
              "string",
              "with eventId: only runs that event started (its CloudEvents source)"),
          new ApiOperation.Param(
              "eventId",
              "string",
              "with eventSource: only runs that event started (its CloudEvents id)"),
          new ApiOperation.Param(
              "state",
              "string",
              "a derived state: recoverable-failure, stuck (RUNNING, no live node has executed it"
                  + " for runs.stuckAfter),"
                  + " or what a WAITING run waits for: retrying, waiting-approval, waiting-timer,"
                  + " waiting-child"),
          new ApiOperation.Param("createdFrom", "string", "created at or after (ISO-8601)"),
          new ApiOperation.Param("createdTo", "string", "created before (ISO-8601)"),
          new ApiOperation.Param("updatedFrom", "string", "last changed at or after (ISO-8601)"),
          new ApiOperation.Param("updatedTo", "string", "last changed before (ISO-8601)"),
          new ApiOperation.Param("input", "string", "a JSON document the input must contain"),
          new ApiOperation.Param("output", "string", "a JSON document the output must contain"),
          new ApiOperation.Param(
              "inputPath",
              "string",
              "a JSON path predicate the input must pass (PostgreSQL's @@, lax): $.a.b[0].c OP"
                  + " literal, OP one of == != < <= > >=, literal a JSON string, number, true,"
                  + " false or null; or exists($.a.b)"),
          new ApiOperation.Param(
              "outputPath", "string", "a JSON path predicate the output must pass, as inputPath"),
          new ApiOperation.Param("cursor", "string", "the next cursor of the previous page"),
          new ApiOperation.Param("limit", "integer", "page size, 1 to 1000 (default 100)"));

  static RunListParams from(Context ctx, Supplier<Liveness> liveness) {
    RunFilter.Builder filter =
        RunFilter.builder()
            .statuses(statuses(ctx.queryParams("status")))
            .flowName(text(ctx, "flow"))
            .node(text(ctx, "node"))
            .parentRunId(uuid(ctx, "parent"))
            .rootRunId(uuid(ctx, "root"))
            .rootsOnly(bool(ctx, "rootsOnly"))
            .idempotencyKey(text(ctx, "idempotencyKey"))
            .triggerEvent(event(ctx))
            .created(instant(ctx, "createdFrom"), instant(ctx, "createdTo"))
            .updated(instant(ctx, "updatedFrom"), instant(ctx, "updatedTo"))
            .inputContains(json(ctx, "input"))
            .outputContains(json(ctx, "output"))
            .inputPath(path(ctx, "inputPath"))
            .outputPath(path(ctx, "outputPath"));
    DerivedState state = DerivedState.parse(text(ctx, "state"));
    RunFilter narrowed = state == null ? filter.build() : state.narrow(filter.build(), liveness);
    return new RunListParams(
        narrowed,
        state,
        Cursors.decode(ctx.queryParam("cursor"), "cursor"),
        RunQueryParams.limit(ctx, RunQuery.DEFAULT_LIMIT));
  }

  private static Set<RunStatus> statuses(List<String> values) {
    Set<RunStatus> statuses = EnumSet.noneOf(RunStatus.class);
    for (String value : values) {
      for (String part : value.split(",", -1)) {
        if (!part.isBlank()) {
          statuses.add(RunQueryParams.status(part));
        }
      }
    }
    return statuses;
  }

  private static String text(Context ctx, String name) {
    String value = ctx.queryParam(name);
    return value == null || value.isBlank() ? null : value.trim();
  }

  private static EventRef event(Context ctx) {
    String source = text(ctx, "eventSource");
    String id = text(ctx, "eventId");
    if ((source == null) != (id == null)) {
      throw new InvalidRequestException(
          "eventSource and eventId name an event together: give both or neither");
    }
    return source == null ? null : new EventRef(source, id);
  }

  private static UUID uuid(Context ctx, String name) {
    String value = text(ctx, name);
    try {
      return value == null ? null : UUID.fromString(value);
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException(name + " must be a run id (a UUID), got '" + value + "'");
    }
  }

  private static boolean bool(Context ctx, String name) {
    String value = text(ctx, name);
    if (value == null || value.equalsIgnoreCase("false")) {
      return false;
    }
    if (value.equalsIgnoreCase("true")) {
      return true;
    }
    throw new InvalidRequestException(name + " must be true or false, got '" + value + "'");
  }

  private static Instant instant(Context ctx, String name) {
    String value = text(ctx, name);
    try {
      return value == null ? null : Instant.parse(value);
    } catch (DateTimeParseException e) {
      throw new InvalidRequestException(
          name + " must be an ISO-8601 instant such as 2026-01-02T03:04:05Z, got '" + value + "'");
    }
  }

  private static JsonPathPredicate path(Context ctx, String name) {
    String value = ctx.queryParam(name); // untrimmed: the position counts from its first character
    try {
      return value == null || value.isBlank() ? null : JsonPathPredicate.parse(value);
    } catch (InvalidJsonPathException e) {
      throw new InvalidRequestException(
          name
              + " is not a JSON path predicate such as $.customer.tier == \"gold\" or"
              + " exists($.items[0]): at position "
              + e.position()
              + ", "
              + e.reason());
    }
  }

  private static JsonNode json(Context ctx, String name) {
    String value = text(ctx, name);
    if (value == null) {
      return null;
    }
    try {
      JsonNode node = Json.MAPPER.readTree(value);
      if (!node.isContainerNode()) {
        throw new InvalidRequestException(name + " must be a JSON object or array, got " + value);
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new InvalidRequestException(
          name + " is not valid JSON: " + e.getOriginalMessage().toLowerCase(Locale.ROOT));
    }
  }
}

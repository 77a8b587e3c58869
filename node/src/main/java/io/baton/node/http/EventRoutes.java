package io.baton.node.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.event.EventTriggers;
import io.baton.event.Ingestion;
import io.baton.event.TriggeredRun;
import io.baton.store.EventFilter;
import io.baton.store.StoredEvent;
import io.javalin.http.Context;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /api/events} (one CloudEvent or a batch: 201 when an event was new, 200 with the same
 * answer when every one had been received before, 202 when an event is stored but its runs could
 * not all be started yet), {@code GET /api/events} (stored events by filter, or one by {@code
 * source} and {@code id} with the runs it started), {@code GET /api/events/{seq}} (one event with
 * its runs) and {@code POST /api/events/replay} (with {@code dryRun}).
 */
final class EventRoutes implements Routes {
  private static final List<String> REPLAY_FIELDS =
      List.of("type", "from", "to", "ids", "dryRun", "limit");
  private static final int DEFAULT_REPLAY_LIMIT = 1000;
  private static final int MAX_LIMIT = 10_000;

  private final EventTriggers events;
  private final RequestLimits limits;

  EventRoutes(EventTriggers events, RequestLimits limits) {
    this.limits = limits;
    this.events = events;
  }

  @Override
  public void addTo(ApiRouter routes) {
    routes
        .post("/api/events", this::receive)
        .permission(Permission.EVENTS_SEND)
        .summary("Receive a CloudEvent or a batch; start the runs whose triggers match")
        .responds(
            201, "new events, with the runs they started",
            200, "every event was received before",
            400, "not a CloudEvent (the attribute is named)");
    routes
        .get("/api/events", this::list)
        .permission(Permission.EVENTS_READ)
        .summary("Received events, or one by source and id")
        .query("source", "string", "with id: the one event")
        .query("id", "string", "with source: the one event")
        .responds(200, "the events", 400, "a bad parameter", 404, "no such event");
    routes
        .get("/api/events/{seq}", this::show)
        .permission(Permission.EVENTS_READ)
        .summary("One stored event by its sequence number, with the runs it started")
        .responds(
            200, "the event and its runs", 400, "a bad sequence number", 404, "no such event");
    routes
        .post("/api/events/replay", this::replay)
        .permission(Permission.EVENTS_SEND)
        .summary("Trigger stored events again; only the missing runs start")
        .responds(200, "what the replay started", 400, "a bad body");
  }

  private void receive(Context ctx) throws Exception {
    JsonNode body = Json.MAPPER.readTree(ctx.body());
    if (body == null || body.isMissingNode()) {
      throw new InvalidRequestException("The body must be a CloudEvent or a list of them");
    }
    checkDataSizes(body);
    var batch = CloudEventJson.readBody(body);
    boolean single = body.isObject();
    ctx.future(
        () ->
            events
                .ingestAll(batch)
                .thenAccept(
                    answers -> {
                      int status = status(answers);
                      List<Map<String, Object>> json =
                          answers.stream().map(EventRoutes::answer).toList();
                      Json.send(ctx, status, single ? json.get(0) : Json.object("events", json));
                    }));
  }

  private void checkDataSizes(JsonNode body) throws Exception {
    List<JsonNode> each = new ArrayList<>();
    if (body.isArray()) {
      body.forEach(each::add);
    } else {
      each.add(body);
    }
    for (int i = 0; i < each.size(); i++) {
      JsonNode data = each.get(i).get("data");
      if (data != null) {
        RequestLimits.check(
            body.isArray() ? "The data of event " + i : "The event's data",
            Json.MAPPER.writeValueAsBytes(data).length,
            limits.maxInputSize(),
            RequestLimits.MAX_INPUT_SIZE_KEY);
      }
    }
  }

  private static int status(List<Ingestion> answers) {
    if (answers.stream().anyMatch(answer -> !answer.triggered())) {
      return 202;
    }
    return answers.stream().allMatch(Ingestion::duplicate) ? 200 : 201;
  }

  private static Map<String, Object> answer(Ingestion ingestion) {
    return Json.object(
        "event",
        eventJson(ingestion.stored()),
        "duplicate",
        ingestion.duplicate(),
        "triggered",
        ingestion.triggered(),
        "runs",
        ingestion.runs().stream().map(EventRoutes::runJson).toList());
  }

  private static Map<String, Object> runJson(TriggeredRun run) {
    return Json.object(
        "flow",
        run.flow(),
        "key",
        run.key(),
        "runId",
        run.runId(),
        "href",
        "/api/v1/runs/" + run.runId());
  }

  static Map<String, Object> eventJson(StoredEvent stored) {
    ObjectNode envelope = stored.event().toJson();
    return Json.object(
        "seq",
        stored.seq(),
        "source",
        stored.event().source(),
        "id",
        stored.event().id(),
        "type",
        stored.event().type(),
        "href",
        "/api/v1/events/" + stored.seq(),
        "receivedAt",
        stored.receivedAt(),
        "triggeredAt",
        stored.triggeredAt(),
        "envelope",
        envelope);
  }

  private void list(Context ctx) {
    String source = ctx.queryParam("source");
    String id = ctx.queryParam("id");
    if (source != null && id != null) {
      events
          .store()
          .find(source, id)
          .ifPresentOrElse(
              stored -> Json.send(ctx, 200, withRuns(stored)),
              () ->
                  Problem.of(
                          404,
                          "event-not-found",
                          "Event not found",
                          "No event with source '" + source + "' and id '" + id + "' is stored")
                      .send(ctx));
      return;
    }
    EventFilter filter =
        new EventFilter(
            ctx.queryParams("type"),
            instant(ctx.queryParam("from"), "from"),
            instant(ctx.queryParam("to"), "to"),
            ctx.queryParams("id"));
    int limit = limit(ctx.queryParam("limit"), 100);
    List<Map<String, Object>> found =
        events.store().find(filter, limit).stream().map(EventRoutes::eventJson).toList();
    Json.send(ctx, 200, Json.object("events", found));
  }

  private void show(Context ctx) {
    String text = ctx.pathParam("seq");
    long seq;
    try {
      seq = Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new InvalidRequestException(
          "An event's sequence number is a whole number, not '" + text + "'");
    }
    events
        .store()
        .find(seq)
        .ifPresentOrElse(
            stored -> Json.send(ctx, 200, withRuns(stored)),
            () ->
                Problem.of(
                        404, "event-not-found", "Event not found", "No event " + seq + " is stored")
                    .send(ctx));
  }

  /** One event's answer: the event and the runs its {@code (flow, key)} pairs have. */
  private Map<String, Object> withRuns(StoredEvent stored) {
    Map<String, Object> json = new LinkedHashMap<>(eventJson(stored));
    json.put("runs", events.runsOf(stored).stream().map(EventRoutes::runJson).toList());
    return json;
  }

  private void replay(Context ctx) throws Exception {
    ObjectNode body = Requests.jsonObject(ctx, REPLAY_FIELDS);
    EventFilter filter =
        new EventFilter(
            texts(body, "type"),
            instant(Requests.optionalText(body, "from"), "from"),
            instant(Requests.optionalText(body, "to"), "to"),
            texts(body, "ids"));
    JsonNode dryRun = body.get("dryRun");
    if (dryRun != null && !dryRun.isNull() && !dryRun.isBoolean()) {
      throw new InvalidRequestException("Field 'dryRun' must be true or false");
    }
    boolean dry = dryRun != null && dryRun.asBoolean(false);
    JsonNode limitField = body.get("limit");
    int limit =
        limitField == null || limitField.isNull()
            ? DEFAULT_REPLAY_LIMIT
            : limit(limitField.asText(), DEFAULT_REPLAY_LIMIT);
    ctx.future(
        () ->
            events
                .replay(filter, dry, limit)
                .thenAccept(
                    replay ->
                        Json.send(
                            ctx,
                            200,
                            Json.object(
                                "dryRun",
                                dry,
                                "matched",
                                replay.matched(),
                                "replayed",
                                replay.replayed(),
                                "started",
                                replay.started().stream().map(EventRoutes::runJson).toList()))));
  }

  private static List<String> texts(ObjectNode body, String field) {
    JsonNode value = body.get(field);
    List<String> texts = new ArrayList<>();
    if (value == null || value.isNull()) {
      return texts;
    }
    if (value.isTextual()) {
      texts.add(value.textValue());
      return texts;
    }
    if (!value.isArray()) {
      throw new InvalidRequestException(
          "Field '" + field + "' must be a string or a list of strings");
    }
    for (JsonNode element : value) {
      if (!element.isTextual() || element.textValue().isEmpty()) {
        throw new InvalidRequestException("Field '" + field + "' must list non-empty strings");
      }
      texts.add(element.textValue());
    }
    return texts;
  }

  private static Instant instant(String text, String field) {
    if (text == null) {
      return null;
    }
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      throw new InvalidRequestException(
          "'"
              + field
              + "' must be an RFC 3339 time such as 2026-11-26T01:02:03Z, not '"
              + text
              + "'");
    }
  }

  private static int limit(String text, int fallback) {
    if (text == null) {
      return fallback;
    }
    try {
      int limit = Integer.parseInt(text);
      if (limit >= 1 && limit <= MAX_LIMIT) {
        return limit;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw new InvalidRequestException(
        "'limit' must be a whole number from 1 to " + MAX_LIMIT + ", not '" + text + "'");
  }
}

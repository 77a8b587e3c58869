package io.baton.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One event in the shape of a CloudEvents 1.0 envelope (the JSON format's attributes {@code id},
 * {@code source}, {@code type}, {@code time}, {@code data}). Two events are the same event when
 * their {@code (source, id)} are equal. Immutable.
 *
 * @param time when the event happened, as its producer says (kept to the microsecond), or null
 * @param data the payload, JSON null when there is none
 * @param traceparent the distributed-tracing extension attribute: the W3C trace context the event
 *     was made in, which the runs it triggers continue; null when it has none
 */
public record CloudEvent(
    String id, String source, String type, Instant time, JsonNode data, String traceparent) {
  public static final String SPEC_VERSION = "1.0";

  /** An event without a trace context. */
  public CloudEvent(String id, String source, String type, Instant time, JsonNode data) {
    this(id, source, type, time, data, null);
  }

  public CloudEvent {
    requireText(id, "id");
    requireText(source, "source");
    requireText(type, "type");
    time = time == null ? null : time.truncatedTo(ChronoUnit.MICROS);
    data = data == null || data.isMissingNode() ? NullNode.getInstance() : data;
  }

  private static void requireText(String value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isEmpty()) {
      throw new IllegalArgumentException("a CloudEvent's " + name + " must not be empty");
    }
  }

  /**
   * Reads an envelope as {@link #toJson} writes it (the attributes it has; others are ignored).
   *
   * @throws IllegalArgumentException {@code id}, {@code source} or {@code type} is missing, or
   *     {@code time} is not an ISO-8601 instant
   */
  public static CloudEvent fromJson(JsonNode json) {
    JsonNode time = json.path("time");
    try {
      return new CloudEvent(
          json.path("id").asText(""),
          json.path("source").asText(""),
          json.path("type").asText(""),
          time.isTextual() ? Instant.parse(time.textValue()) : null,
          json.get("data"),
          json.path("traceparent").isTextual() ? json.get("traceparent").textValue() : null);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("not an ISO-8601 time: " + time, e);
    }
  }

  /** The envelope in structured content mode, as the API answers and as templates read it. */
  public ObjectNode toJson() {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("specversion", SPEC_VERSION);
    json.put("id", id);
    json.put("source", source);
    json.put("type", type);
    if (time != null) {
      json.put("time", time.toString());
    }
    json.set("data", data);
    if (traceparent != null) {
      json.put("traceparent", traceparent);
    }
    return json;
  }
}

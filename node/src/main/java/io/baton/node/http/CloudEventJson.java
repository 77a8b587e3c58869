package io.baton.node.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.store.CloudEvent;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Reads CloudEvents 1.0 in the JSON format's structured content mode (one event) and batch mode (a
 * list): {@code specversion} (1.0, may be left out), {@code id}, {@code source}, {@code type}
 * (required, non-empty strings), {@code time} (RFC 3339), {@code datacontenttype} (JSON only),
 * {@code subject}, {@code dataschema} (accepted, not kept), {@code traceparent} (the
 * distributed-tracing extension: a W3C trace context the triggered runs continue) and {@code data}.
 * Every mistake is a 400 naming the event (by its index in a batch) and the attribute.
 */
final class CloudEventJson {
  static final List<String> ATTRIBUTES =
      List.of(
          "specversion",
          "id",
          "source",
          "type",
          "time",
          "datacontenttype",
          "subject",
          "dataschema",
          "traceparent",
          "data");

  private CloudEventJson() {}

  /** The events of a body: one object, or a non-empty list of them. */
  static List<CloudEvent> readBody(JsonNode body) {
    if (body.isObject()) {
      return List.of(read(body, "the event"));
    }
    if (body.isArray() && !body.isEmpty()) {
      return IntStream.range(0, body.size())
          .mapToObj(i -> read(body.get(i), "event [" + i + "]"))
          .toList();
    }
    throw new InvalidRequestException(
        "The body must be a CloudEvent (a JSON object) or a non-empty JSON list of them");
  }

  static CloudEvent read(JsonNode json, String which) {
    if (!json.isObject()) {
      throw new InvalidRequestException(which + " must be a JSON object");
    }
    for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!ATTRIBUTES.contains(name)) {
        throw new InvalidRequestException(
            which
                + ": unknown attribute '"
                + name
                + "'"
                + (name.equals("data_base64") ? " (only JSON data is accepted)" : "")
                + "; expected "
                + String.join(", ", ATTRIBUTES));
      }
    }
    String version = text(json, "specversion", which, false);
    if (version != null && !version.equals(CloudEvent.SPEC_VERSION)) {
      throw new InvalidRequestException(
          which + ": specversion '" + version + "' is not supported; use 1.0");
    }
    String contentType = text(json, "datacontenttype", which, false);
    if (contentType != null && !contentType.startsWith("application/json")) {
      throw new InvalidRequestException(
          which + ": datacontenttype '" + contentType + "' is not supported; data must be JSON");
    }
    text(json, "subject", which, false);
    text(json, "dataschema", which, false);
    return new CloudEvent(
        text(json, "id", which, true),
        text(json, "source", which, true),
        text(json, "type", which, true),
        time(json, which),
        json.get("data"),
        traceparent(json, which));
  }

  private static String traceparent(JsonNode json, String which) {
    String value = text(json, "traceparent", which, false);
    try {
      return Requests.traceparent(value);
    } catch (InvalidRequestException invalid) {
      throw new InvalidRequestException(which + ": " + invalid.getMessage());
    }
  }

  private static String text(JsonNode json, String field, String which, boolean required) {
    JsonNode value = json.get(field);
    if (value == null || value.isNull()) {
      if (required) {
        throw new InvalidRequestException(which + ": attribute '" + field + "' is required");
      }
      return null;
    }
    if (!value.isTextual() || (required && value.textValue().isEmpty())) {
      throw new InvalidRequestException(
          which + ": attribute '" + field + "' must be a non-empty string");
    }
    return value.textValue();
  }

  private static Instant time(JsonNode json, String which) {
    String text = text(json, "time", which, false);
    if (text == null) {
      return null;
    }
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      throw new InvalidRequestException(
          which + ": time '" + text + "' is not an RFC 3339 time such as 2026-11-26T01:02:03Z");
    }
  }
}

package io.baton.node.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.trace.TraceParent;
import io.javalin.http.Context;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;

/** Reading what a request sends: path ids and JSON bodies, each mistake a 400 that names it. */
final class Requests {
  private Requests() {}

  static UUID runId(Context ctx) {
    String text = ctx.pathParam("id");
    try {
      return UUID.fromString(text);
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException("'" + text + "' is not a run id (a UUID)");
    }
  }

  /**
   * The body as a JSON object with only {@code allowed} fields; an empty body is an empty object.
   *
   * @throws JsonProcessingException the body is not JSON (mapped to a 400)
   */
  static ObjectNode jsonObject(Context ctx, List<String> allowed) throws JsonProcessingException {
    String body = ctx.body();
    if (body.isBlank()) {
      return Json.MAPPER.createObjectNode();
    }
    JsonNode tree = Json.MAPPER.readTree(body);
    if (!(tree instanceof ObjectNode object)) {
      throw new InvalidRequestException("The request body must be a JSON object");
    }
    for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!allowed.contains(name)) {
        throw new InvalidRequestException(
            "Unknown field '" + name + "'; expected " + String.join(", ", allowed));
      }
    }
    return object;
  }

  /** A string field, or null when absent or null. */
  static String optionalText(ObjectNode body, String field) {
    JsonNode value = body.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw new InvalidRequestException("Field '" + field + "' must be a string");
    }
    return value.textValue();
  }

  static String requiredText(ObjectNode body, String field) {
    String value = optionalText(body, field);
    if (value == null || value.isBlank()) {
      throw new InvalidRequestException("Field '" + field + "' is required");
    }
    return value;
  }

  /**
   * A W3C {@code traceparent} (a header or a CloudEvents attribute) in its canonical form, or null
   * when absent; a malformed one is a 400 that says what is wrong.
   */
  static String traceparent(String value) {
    try {
      return TraceParent.parse(value).map(TraceParent::toString).orElse(null);
    } catch (IllegalArgumentException invalid) {
      throw new InvalidRequestException(invalid.getMessage());
    }
  }
}

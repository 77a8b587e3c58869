package io.baton.node.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.baton.journal.JournalCodec;
import io.javalin.http.Context;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The API's JSON: the journal's mapper settings (ISO-8601 instants), but absent values are written
 * as {@code null} so that every documented field is always there.
 */
final class Json {
  static final String CONTENT_TYPE = "application/json";
  static final ObjectMapper MAPPER =
      JournalCodec.newMapper().setDefaultPropertyInclusion(JsonInclude.Include.ALWAYS);

  private Json() {}

  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("cannot write " + value.getClass().getSimpleName(), e);
    }
  }

  /** A JSON object whose fields keep the order given: {@code name, value, name, value, ...}. */
  static Map<String, Object> object(Object... namesAndValues) {
    Map<String, Object> object = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      object.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return object;
  }

  static void send(Context ctx, int status, Object body) {
    ctx.status(status).contentType(CONTENT_TYPE).result(write(body));
  }
}

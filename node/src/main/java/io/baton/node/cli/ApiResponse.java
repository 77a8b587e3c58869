package io.baton.node.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.baton.journal.JournalCodec;

/** What the server answered: its status and body, JSON or a problem. */
record ApiResponse(int status, String body) {
  static final ObjectMapper MAPPER = JournalCodec.newMapper();

  boolean ok() {
    return status >= 200 && status < 300;
  }

  /** The body as JSON; a missing node when it is not JSON. */
  JsonNode json() {
    return parse(body);
  }

  /** {@code text} as JSON; a missing node when it is not JSON. */
  static JsonNode parse(String text) {
    try {
      return text == null || text.isBlank() ? MissingNode.getInstance() : MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      return MissingNode.getInstance();
    }
  }

  /** The problem's detail, or a line that says what the server answered. */
  String detail() {
    JsonNode detail = json().path("detail");
    return detail.isTextual() ? detail.asText() : "the server answered HTTP " + status;
  }
}

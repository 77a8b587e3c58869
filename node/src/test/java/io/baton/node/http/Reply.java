package io.baton.node.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.UncheckedIOException;
import java.net.http.HttpHeaders;

/** An HTTP response as the tests read it. */
public record Reply(int status, HttpHeaders headers, String body) {
  public JsonNode json() {
    try {
      return Json.MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("not JSON (status " + status + "): " + body, e);
    }
  }

  public String contentType() {
    return headers.firstValue("Content-Type").orElse("");
  }

  @Override
  public String toString() {
    return status + " " + body;
  }
}

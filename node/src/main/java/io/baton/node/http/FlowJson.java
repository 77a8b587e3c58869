package io.baton.node.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/** The newest version of a flow: its definition as JSON and every version, newest first. */
public record FlowJson(
    String name, String hash, Instant createdAt, JsonNode definition, List<Version> versions) {

  /** One stored version of the flow. */
  public record Version(String hash, Instant createdAt) {}
}

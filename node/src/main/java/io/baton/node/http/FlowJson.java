package io.baton.node.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * A version of a flow (the newest unless one was asked for): its definition as JSON and as YAML
 * (rendered from the stored canonical definition, so comments and layout of the applied file are
 * not kept), and every version, newest first.
 */
public record FlowJson(
    String name,
    String hash,
    Instant createdAt,
    JsonNode definition,
    String yaml,
    List<Version> versions) {

  /** One stored version of the flow. */
  public record Version(String hash, Instant createdAt) {}
}

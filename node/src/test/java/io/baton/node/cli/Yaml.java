package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** Reads what {@code -o yaml} printed, to compare it with the API's JSON. */
final class Yaml {
  private static final YAMLMapper MAPPER = new YAMLMapper();

  private Yaml() {}

  static JsonNode parse(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException("not YAML: " + text, e);
    }
  }

  /** Every document of a stream of YAML documents ({@code ---} before each). */
  static List<JsonNode> parseAll(String text) {
    try {
      return MAPPER.readerFor(JsonNode.class).<JsonNode>readValues(text).readAll();
    } catch (IOException e) {
      throw new UncheckedIOException("not YAML documents: " + text, e);
    }
  }
}

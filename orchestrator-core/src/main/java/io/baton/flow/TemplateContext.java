package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Map;
import java.util.UUID;

/**
 * What templates can see: {@code input.*}, {@code event.*}, {@code steps.NAME.output.*}, {@code
 * run.id}, {@code run.attempt}.
 *
 * @param stepOutputs the outputs of the steps that have succeeded, by name
 * @param attempt the attempt being rendered for (for {@code run.attempt})
 */
public record TemplateContext(
    JsonNode input, JsonNode event, Map<String, JsonNode> stepOutputs, UUID runId, int attempt) {
  public TemplateContext {
    input = input == null ? NullNode.getInstance() : input;
    event = event == null ? NullNode.getInstance() : event;
    stepOutputs = stepOutputs == null ? Map.of() : stepOutputs;
  }
}

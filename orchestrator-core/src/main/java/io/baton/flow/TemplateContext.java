package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Map;
import java.util.UUID;

/**
 * What templates can see: {@code input.*}, {@code event.*}, {@code steps.NAME.output.*}, {@code
 * run.id}, {@code run.attempt}, {@code run.iteration}.
 *
 * @param stepOutputs the outputs of the steps that have succeeded (and of a repeating step, its
 *     last iteration's), by name
 * @param attempt the attempt being rendered for (for {@code run.attempt})
 * @param iteration the iteration of a repeating step being rendered for, from 1 (for {@code
 *     run.iteration}); 0 elsewhere
 */
public record TemplateContext(
    JsonNode input,
    JsonNode event,
    Map<String, JsonNode> stepOutputs,
    UUID runId,
    int attempt,
    int iteration) {
  public TemplateContext {
    input = input == null ? NullNode.getInstance() : input;
    event = event == null ? NullNode.getInstance() : event;
    stepOutputs = stepOutputs == null ? Map.of() : stepOutputs;
  }

  /** A context outside any repeating step. */
  public TemplateContext(
      JsonNode input, JsonNode event, Map<String, JsonNode> stepOutputs, UUID runId, int attempt) {
    this(input, event, stepOutputs, runId, attempt, 0);
  }
}

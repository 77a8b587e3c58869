package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;

/**
 * A step as read, before the checks that need the whole flow. Fields that were wrong are null.
 *
 * @param path the step's field path, {@code steps[i]}
 * @param needs the names listed under {@code needs} (null entries for wrong ones), or null when the
 *     step has no {@code needs} and follows the one before it
 */
record StepDraft(
    int index,
    String path,
    String name,
    String capability,
    String operation,
    JsonNode params,
    List<String> needs,
    Duration timeout,
    RetryPolicy retry,
    RepeatPolicy repeat) {

  boolean hasExplicitNeeds() {
    return needs != null;
  }

  String paramsPath() {
    return FieldPaths.key(path, "params");
  }

  StepDefinition toDefinition(String resolvedOperation, List<String> resolvedNeeds) {
    return new StepDefinition(
        name, capability, resolvedOperation, params, resolvedNeeds, timeout, retry, repeat);
  }
}

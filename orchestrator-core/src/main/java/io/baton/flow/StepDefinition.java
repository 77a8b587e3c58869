package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One step of a flow: it invokes {@code capability.operation} with its rendered params.
 *
 * @param operation null where the capability takes none
 * @param params the params template (strings may hold {@code {{ … }}} expressions), or JSON null
 * @param needs the steps it waits for: those the flow names, else the step before it (none for the
 *     first)
 * @param timeout the longest one attempt may take, or null for none
 * @param repeat how the step runs again until a condition holds, or null when it runs once
 */
public record StepDefinition(
    String name,
    String capability,
    String operation,
    JsonNode params,
    List<String> needs,
    Duration timeout,
    RetryPolicy retry,
    RepeatPolicy repeat) {
  public StepDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(capability, "capability");
    params = params == null ? NullNode.getInstance() : params;
    needs = needs == null ? List.of() : List.copyOf(needs);
    retry = retry == null ? RetryPolicy.NONE : retry;
  }

  /** A step that runs once. */
  public StepDefinition(
      String name,
      String capability,
      String operation,
      JsonNode params,
      List<String> needs,
      Duration timeout,
      RetryPolicy retry) {
    this(name, capability, operation, params, needs, timeout, retry, null);
  }
}

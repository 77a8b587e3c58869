package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A validated flow, ready to run: its definition, its identity (the sha-256 of its canonical JSON,
 * under which runs pin it) and that canonical JSON. Immutable and thread-safe.
 */
public final class Flow {
  private final FlowDefinition definition;
  private final String hash;
  private final String canonicalJson;
  private final Map<String, StepDefinition> steps = new LinkedHashMap<>();

  public Flow(FlowDefinition definition, String hash, String canonicalJson) {
    this.definition = Objects.requireNonNull(definition, "definition");
    this.hash = Objects.requireNonNull(hash, "hash");
    this.canonicalJson = Objects.requireNonNull(canonicalJson, "canonicalJson");
    for (StepDefinition step : definition.steps()) {
      steps.put(step.name(), step);
    }
  }

  public FlowDefinition definition() {
    return definition;
  }

  public String name() {
    return definition.name();
  }

  public String hash() {
    return hash;
  }

  /** The canonical JSON the hash is taken of: keys sorted, no insignificant white space. */
  public String canonicalJson() {
    return canonicalJson;
  }

  /** The steps in the order the flow lists them. */
  public List<StepDefinition> steps() {
    return definition.steps();
  }

  /** The named step, or null. */
  public StepDefinition step(String name) {
    return steps.get(name);
  }

  /** The events that start this flow, if any. */
  public Optional<EventTrigger> trigger() {
    return Optional.ofNullable(definition.trigger());
  }

  /** The run's output template, or null for "the last step's output". */
  public JsonNode outputTemplate() {
    return definition.output();
  }

  @Override
  public String toString() {
    return "Flow[" + name() + "@" + hash.substring(0, Math.min(12, hash.length())) + "]";
  }
}

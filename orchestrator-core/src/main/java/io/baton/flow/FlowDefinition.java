package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A workflow as its YAML describes it, validated.
 *
 * @param maxResumeAge how old an interrupted run may be and still be resumed, or null for any age
 * @param output the template of the run's output, or null for "the last step's output"
 * @param trigger the events that start the flow, or null when only people and scripts start it
 * @param retention how long a finished run of this flow is kept before it is deleted, or null for
 *     the node's default ({@code retention.finishedRuns})
 */
public record FlowDefinition(
    String name,
    String description,
    RecoveryPolicy recovery,
    Duration maxResumeAge,
    JsonNode output,
    List<StepDefinition> steps,
    EventTrigger trigger,
    Duration retention) {
  /** A flow kept as long as the node's default retention says. */
  public FlowDefinition(
      String name,
      String description,
      RecoveryPolicy recovery,
      Duration maxResumeAge,
      JsonNode output,
      List<StepDefinition> steps,
      EventTrigger trigger) {
    this(name, description, recovery, maxResumeAge, output, steps, trigger, null);
  }

  /** A flow without a trigger. */
  public FlowDefinition(
      String name,
      String description,
      RecoveryPolicy recovery,
      Duration maxResumeAge,
      JsonNode output,
      List<StepDefinition> steps) {
    this(name, description, recovery, maxResumeAge, output, steps, null);
  }

  public FlowDefinition {
    Objects.requireNonNull(name, "name");
    description = description == null ? "" : description;
    recovery = recovery == null ? RecoveryPolicy.RESUME : recovery;
    output = output == null || output.isNull() || output.isMissingNode() ? null : output;
    steps = List.copyOf(steps);
  }
}

package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;

/** A flow as read, before the checks that need the whole flow. Fields that were wrong are null. */
record FlowDraft(
    String name,
    String description,
    RecoveryPolicy recovery,
    Duration maxResumeAge,
    JsonNode output,
    List<StepDraft> steps,
    EventTrigger trigger,
    Duration retention) {

  /** Step names in the order the flow lists them (valid ones only). */
  List<String> stepNames() {
    return steps.stream().map(StepDraft::name).filter(name -> name != null).distinct().toList();
  }
}

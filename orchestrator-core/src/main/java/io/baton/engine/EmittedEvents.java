package io.baton.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.baton.capability.StepOutcome;
import io.baton.store.CloudEvent;
import java.util.List;
import java.util.UUID;

/**
 * The envelopes of the events a step emits, as its {@code StepCompleted} journals them. Their
 * identity is derived from where they come from — source {@code /baton/flows/<flow>}, id {@code
 * <run>/<step>/<index>} — so a step executed again after a crash emits the same events, which
 * deduplicate.
 */
final class EmittedEvents {
  private EmittedEvents() {}

  /** The envelopes, or null when the step emitted nothing. */
  static JsonNode envelopes(
      UUID runId, String flowName, String step, List<StepOutcome.Emitted> events) {
    if (events.isEmpty()) {
      return null;
    }
    ArrayNode envelopes = JsonNodeFactory.instance.arrayNode();
    for (int i = 0; i < events.size(); i++) {
      StepOutcome.Emitted event = events.get(i);
      envelopes.add(
          new CloudEvent(
                  runId + "/" + step + "/" + i,
                  "/baton/flows/" + flowName,
                  event.type(),
                  null,
                  event.data())
              .toJson());
    }
    return envelopes;
  }
}

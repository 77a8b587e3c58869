package io.baton.capability.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.capability.Capability.ParamProblem;
import io.baton.capability.StepOutcome;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code emit} param of {@code noop} and {@code log}: {@code emit: [{type: order.shipped, data:
 * {…}}]}, the events the step emits when it completes (see {@link StepOutcome.Completed#events}).
 */
final class EmitParam {
  static final String KEY = "emit";

  private EmitParam() {}

  /** Problems with the param as written (templates are checked once rendered). */
  static void check(JsonNode params, ParamChecks checks) {
    if (params == null || !params.isObject() || !params.has(KEY) || params.get(KEY).isNull()) {
      return;
    }
    JsonNode emit = params.get(KEY);
    if (ParamChecks.isTemplate(emit)) {
      return;
    }
    if (!emit.isArray()) {
      checks.add(KEY, "emit must be a list of events such as [{type: order.shipped, data: {}}]");
      return;
    }
    for (int i = 0; i < emit.size(); i++) {
      JsonNode event = emit.get(i);
      String field = KEY + "[" + i + "]";
      if (!event.isObject()) {
        checks.add(field, field + " must be a mapping with a type and optional data");
      } else if (!event.path("type").isTextual() || event.path("type").textValue().isEmpty()) {
        checks.add(field + ".type", "every emitted event needs a type (a non-empty string)");
      } else {
        for (var names = event.fieldNames(); names.hasNext(); ) {
          String name = names.next();
          if (!name.equals("type") && !name.equals("data")) {
            checks.add(field + "." + name, "unknown key '" + name + "'; allowed keys: type, data");
          }
        }
      }
    }
  }

  /** The events of rendered, checked params. */
  static List<StepOutcome.Emitted> events(JsonNode params) {
    List<StepOutcome.Emitted> events = new ArrayList<>();
    if (params != null && params.isObject() && params.path(KEY).isArray()) {
      for (JsonNode event : params.get(KEY)) {
        events.add(new StepOutcome.Emitted(event.get("type").textValue(), event.get("data")));
      }
    }
    return events;
  }

  static List<ParamProblem> problems(JsonNode params, String capability) {
    ParamChecks checks = new ParamChecks(capability);
    check(params, checks);
    return checks.problems();
  }
}

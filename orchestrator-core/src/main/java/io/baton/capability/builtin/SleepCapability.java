package io.baton.capability.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.baton.capability.Capability;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import io.baton.journal.WaitReason;
import io.baton.time.Durations;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * {@code sleep}: a durable timer. Params: {@code duration} (such as {@code 2s}). The step suspends
 * with reason {@link WaitReason#TIMER}, due at the invocation clock's now plus the duration, and
 * detail {@code {duration}}; the engine parks the run and wakes it when due, on whichever node owns
 * it then.
 */
public final class SleepCapability implements Capability {
  public static final String NAME = "sleep";
  private static final List<String> PARAMS = List.of("duration");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<ParamProblem> validate(String operation, JsonNode params) {
    ParamChecks checks = new ParamChecks(NAME);
    if (checks.mapping(params, PARAMS)) {
      String duration = checks.requiredText(params, "duration", "how long to wait, such as 2s");
      if (duration != null && !ParamChecks.isTemplate(params.get("duration"))) {
        parse(duration, checks);
      }
    }
    return checks.problems();
  }

  @Override
  public CompletionStage<StepOutcome> invoke(Invocation invocation) {
    return Outcomes.now(NAME, () -> suspend(invocation));
  }

  private StepOutcome suspend(Invocation invocation) {
    List<ParamProblem> problems = validate(null, invocation.params());
    if (!problems.isEmpty()) {
      return ParamChecks.invalid(NAME, problems);
    }
    Duration duration = Durations.parse(invocation.params().get("duration").textValue());
    JsonNode detail =
        JsonNodeFactory.instance.objectNode().put("duration", Durations.format(duration));
    return new StepOutcome.Suspended(
        WaitReason.TIMER, invocation.clock().instant().plus(duration), detail);
  }

  private static void parse(String duration, ParamChecks checks) {
    try {
      Durations.parse(duration);
    } catch (IllegalArgumentException e) {
      checks.add("duration", e.getMessage());
    }
  }
}

package io.baton.capability.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.capability.Capability;
import io.baton.capability.Capability.ParamProblem;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * {@code noop}: completes at once with its rendered params as output (null without params). With an
 * {@code emit} param ({@code [{type, data}]}) it emits those events when it completes.
 */
public final class NoopCapability implements Capability {
  public static final String NAME = "noop";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<ParamProblem> validate(String operation, JsonNode params) {
    return EmitParam.problems(params, NAME);
  }

  @Override
  public CompletionStage<StepOutcome> invoke(Invocation invocation) {
    return Outcomes.now(NAME, () -> complete(invocation.params()));
  }

  private static StepOutcome complete(JsonNode params) {
    List<ParamProblem> problems = EmitParam.problems(params, NAME);
    if (!problems.isEmpty()) {
      return ParamChecks.invalid(NAME, problems);
    }
    return new StepOutcome.Completed(params, EmitParam.events(params));
  }
}

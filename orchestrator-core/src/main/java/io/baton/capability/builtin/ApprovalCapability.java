package io.baton.capability.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.baton.capability.Capability;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import io.baton.journal.WaitReason;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * {@code approval}: waits for a person. Params: {@code prompt} (what to approve). The step suspends
 * with reason {@link WaitReason#APPROVAL}, no due time and detail {@code {prompt}}; the engine
 * parks the run until someone approves or rejects it.
 */
public final class ApprovalCapability implements Capability {
  public static final String NAME = "approval";
  private static final List<String> PARAMS = List.of("prompt");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<ParamProblem> validate(String operation, JsonNode params) {
    ParamChecks checks = new ParamChecks(NAME);
    if (checks.mapping(params, PARAMS)) {
      checks.requiredText(params, "prompt", "a prompt that tells the approver what to decide");
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
    JsonNode detail =
        JsonNodeFactory.instance.objectNode().set("prompt", invocation.params().get("prompt"));
    return new StepOutcome.Suspended(WaitReason.APPROVAL, null, detail);
  }
}

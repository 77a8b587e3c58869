package io.baton.capability.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.capability.Capability;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import io.baton.flow.FlowNames;
import io.baton.journal.WaitReason;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * {@code flow}: runs another flow as a child. Params: {@code flow} (the child flow's name) and
 * {@code input} (any JSON, default null). The step suspends with reason {@link WaitReason#CHILD}
 * and detail {@code {flow, input}}; the engine starts the child in the same root journal and wakes
 * the parent with the child's result.
 */
public final class SubflowCapability implements Capability {
  public static final String NAME = "flow";
  private static final List<String> PARAMS = List.of("flow", "input");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<ParamProblem> validate(String operation, JsonNode params) {
    ParamChecks checks = new ParamChecks(NAME);
    if (checks.mapping(params, PARAMS)) {
      String flow = checks.requiredText(params, "flow", "the name of the flow to run");
      if (flow != null && !ParamChecks.isTemplate(params.get("flow")) && !FlowNames.isValid(flow)) {
        checks.add("flow", "'" + flow + "' is not a valid flow name: " + FlowNames.RULE);
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
    JsonNode params = invocation.params();
    ObjectNode detail = JsonNodeFactory.instance.objectNode();
    detail.set("flow", params.get("flow"));
    detail.set("input", params.has("input") ? params.get("input") : NullNode.getInstance());
    return new StepOutcome.Suspended(WaitReason.CHILD, null, detail);
  }
}

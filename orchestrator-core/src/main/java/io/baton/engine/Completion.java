package io.baton.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.capability.ErrorCodes;
import io.baton.flow.Flow;
import io.baton.flow.StepDefinition;
import io.baton.flow.TemplateContext;
import io.baton.flow.TemplateException;
import io.baton.flow.Templates;
import io.baton.journal.ErrorInfo;
import io.baton.journal.RunCompleted;
import io.baton.journal.RunStatus;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepStatus;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finishes runs once nothing more can happen in them: with their output when every step succeeded,
 * with the first failed step's error when a step failed and nothing independent of it is left. The
 * completion joins the append of the last step's outcome.
 */
final class Completion {
  private Completion() {}

  /** Buffers the run's completion when it is finished (counting outcomes not yet journaled). */
  static void finishIfDone(ActiveTree tree, RunState run, Flow flow) {
    DecidedSteps decided = DecidedSteps.of(tree, run, flow);
    if (decided == null) {
      return;
    }
    Set<String> doomed = Dependencies.blockedByFailure(flow, decided::status);
    boolean allSucceeded = true;
    boolean canProgress = false;
    String firstFailed = null;
    for (StepDefinition step : flow.steps()) {
      StepStatus status = decided.status(step.name());
      allSucceeded &= status == StepStatus.SUCCEEDED;
      if (status == StepStatus.FAILED && firstFailed == null) {
        firstFailed = step.name();
      }
      canProgress |= !status.isFinished() && !doomed.contains(step.name());
    }
    if (allSucceeded) {
      succeed(tree, run, flow, decided.outputs());
    } else if (firstFailed != null && !canProgress) {
      fail(tree, run, firstFailed, decided.error(firstFailed));
    }
  }

  private static void succeed(
      ActiveTree tree, RunState run, Flow flow, Map<String, JsonNode> outputs) {
    JsonNode output;
    try {
      output =
          flow.outputTemplate() != null
              ? Templates.render(
                  flow.outputTemplate(),
                  new TemplateContext(run.input(), run.trigger(), outputs, run.runId(), 0))
              : lastOutput(flow, outputs);
    } catch (TemplateException e) {
      finish(
          tree,
          run,
          RunCompleted.failed(
              new ErrorInfo(
                  ErrorCodes.INVALID_PARAMS,
                  "the flow's output template failed: " + e.getMessage()),
              false));
      return;
    }
    finish(tree, run, RunCompleted.succeeded(output));
  }

  private static JsonNode lastOutput(Flow flow, Map<String, JsonNode> outputs) {
    List<StepDefinition> steps = flow.steps();
    return outputs.get(steps.get(steps.size() - 1).name());
  }

  private static void fail(ActiveTree tree, RunState run, String step, ErrorInfo cause) {
    ErrorInfo error = new ErrorInfo(cause.code(), "step " + step + " failed: " + cause.message());
    boolean recoverable = !ErrorCodes.REJECTED.equals(cause.code());
    finish(tree, run, RunCompleted.failed(error, recoverable));
    Cancellations.cancelDescendants(tree, run, "parent run " + run.runId() + " failed");
  }

  private static void finish(ActiveTree tree, RunState run, RunCompleted completed) {
    RunStatus current = DecidedStatus.status(tree, run);
    if (current != RunStatus.RUNNING) {
      tree.decide(
          run.runId(), RunStateMachine.transition(current, RunStatus.RUNNING, "finishing"), null);
    }
    RunStateMachine.checkCompletion(RunStatus.RUNNING);
    tree.decide(run.runId(), completed, null);
  }
}

package io.baton.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.capability.ErrorCodes;
import io.baton.flow.Flow;
import io.baton.flow.StepDefinition;
import io.baton.flow.TemplateException;
import io.baton.flow.Templates;
import io.baton.journal.ErrorInfo;
import io.baton.journal.RunCompleted;
import io.baton.journal.RunStatus;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepState;
import io.baton.journal.replay.StepStatus;
import java.util.List;

/** Finishes runs: with their output when every step succeeded, with the first error otherwise. */
final class Completion {
  private Completion() {}

  static void succeed(ActiveTree tree, RunState run) {
    Flow flow = tree.flowOf(run);
    JsonNode output;
    try {
      output =
          flow.outputTemplate() != null
              ? Templates.render(flow.outputTemplate(), StepInvoker.context(run, 0))
              : lastOutput(run, flow);
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

  private static JsonNode lastOutput(RunState run, Flow flow) {
    List<StepDefinition> steps = flow.steps();
    return run.step(steps.get(steps.size() - 1).name()).output();
  }

  static void fail(Engine engine, ActiveTree tree, RunState run) {
    StepState failed = firstFailed(run, tree.flowOf(run));
    ErrorInfo error =
        new ErrorInfo(
            failed.error().code(),
            "step " + failed.name() + " failed: " + failed.error().message());
    boolean recoverable = !ErrorCodes.REJECTED.equals(failed.error().code());
    finish(tree, run, RunCompleted.failed(error, recoverable));
    Cancellations.cancelDescendants(tree, run, "parent run " + run.runId() + " failed");
  }

  private static StepState firstFailed(RunState run, Flow flow) {
    for (StepDefinition step : flow.steps()) {
      if (run.hasStep(step.name()) && run.step(step.name()).status() == StepStatus.FAILED) {
        return run.step(step.name());
      }
    }
    throw new IllegalStateException("run " + run.runId() + " has no failed step");
  }

  private static void finish(ActiveTree tree, RunState run, RunCompleted completed) {
    RunStatus current = Projection.status(tree, run);
    if (current != RunStatus.RUNNING) {
      tree.buffer(
          run.runId(), RunStateMachine.transition(current, RunStatus.RUNNING, "finishing"), null);
    }
    RunStateMachine.checkCompletion(RunStatus.RUNNING);
    tree.buffer(run.runId(), completed, null);
  }
}

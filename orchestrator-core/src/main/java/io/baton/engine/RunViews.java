package io.baton.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.flow.Flow;
import io.baton.flow.StepDefinition;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepState;
import io.baton.journal.replay.TreeState;
import io.baton.store.RunRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/** Builds what clients see of a run from its row and its replayed tree. */
final class RunViews {
  private RunViews() {}

  static RunView view(RunRecord row, TreeState tree, Flow flow) {
    RunState run = tree.run(row.runId());
    List<StepView> steps = new ArrayList<>();
    for (StepDefinition step : flow.steps()) {
      steps.add(
          run != null && run.hasStep(step.name())
              ? stepView(run.step(step.name()))
              : new StepView(step.name(), "PENDING", 0, null, null, null, null, null, null, null));
    }
    List<UUID> children = new ArrayList<>();
    for (RunState other : tree.runs()) {
      if (row.runId().equals(other.parentRunId())) {
        children.add(other.runId());
      }
    }
    JsonNode trigger = run == null ? null : run.trigger();
    return new RunView(
        row,
        steps,
        children,
        tree.claims(),
        run == null ? List.of() : run.commands(),
        trigger == null || trigger.isNull() ? null : trigger);
  }

  private static StepView stepView(StepState step) {
    return new StepView(
        step.name(),
        step.inFlight() ? "RUNNING" : step.status().name(),
        step.attempts(),
        step.output(),
        step.error(),
        step.startedAt(),
        step.finishedAt(),
        step.retryAt(),
        step.waitReason() == null ? null : step.waitReason().name().toLowerCase(Locale.ROOT),
        step.dueAt());
  }
}

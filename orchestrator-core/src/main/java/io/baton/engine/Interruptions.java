package io.baton.engine;

import io.baton.flow.Flow;
import io.baton.flow.FlowDefinition;
import io.baton.flow.RecoveryPolicy;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepState;
import io.baton.journal.replay.TreeState;
import java.util.ArrayList;
import java.util.List;

/**
 * Tells an interrupted tree from one that was handed over between steps. A flow whose recovery
 * policy treats the two differently ({@code recovery: fail}, or a {@code maxResumeAge}) journals
 * each step's start before invoking it; an adopting node applies the policy only when a started
 * step of an unfinished run has no outcome, that is when the step may have been executing as the
 * previous owner lost the tree. Every other tree continues, whatever the policy.
 */
final class Interruptions {
  private Interruptions() {}

  /** Whether trees of this root flow journal their steps' starts. */
  static boolean tracked(Flow rootFlow) {
    if (rootFlow == null) {
      return false;
    }
    FlowDefinition definition = rootFlow.definition();
    return definition.recovery() == RecoveryPolicy.FAIL || definition.maxResumeAge() != null;
  }

  /** The steps of unfinished runs journaled as started without an outcome ("run/step"). */
  static List<String> inFlight(TreeState tree) {
    List<String> steps = new ArrayList<>();
    for (RunState run : tree.runs()) {
      if (run.status().isTerminal()) {
        continue;
      }
      for (StepState step : run.steps()) {
        if (step.inFlight()) {
          steps.add(run.isRoot() ? step.name() : run.runId() + "/" + step.name());
        }
      }
    }
    return steps;
  }
}

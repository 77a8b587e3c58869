package io.baton.engine;

import io.baton.capability.ErrorCodes;
import io.baton.capability.StepOutcome;
import io.baton.journal.RunCreated;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.TreeState;
import java.util.List;
import java.util.Optional;

/**
 * Whether a run may start one more subflow under the node's {@link RunLimits}: a pure decision on
 * the tree's journaled state and the runs decided but not yet journaled.
 */
final class SubflowLimits {
  private SubflowLimits() {}

  /**
   * The failure of the step of {@code parent} that would start {@code flowName}, or empty when the
   * child may start.
   *
   * @param undecided events decided for the tree and not yet journaled (buffered or in flight)
   */
  static Optional<StepOutcome.Failed> refusal(
      RunLimits limits,
      TreeState tree,
      List<PendingEvent> undecided,
      RunState parent,
      String step,
      String flowName) {
    int childDepth = depth(tree, parent) + 1;
    if (childDepth > limits.maxSubflowDepth()) {
      return Optional.of(
          new StepOutcome.Failed(
              ErrorCodes.SUBFLOW_DEPTH_EXCEEDED,
              "subflow depth limit reached: step '"
                  + step
                  + "' of run "
                  + parent.runId()
                  + " (flow '"
                  + parent.flowName()
                  + "', at depth "
                  + (childDepth - 1)
                  + ") would start flow '"
                  + flowName
                  + "' at depth "
                  + childDepth
                  + ", beyond "
                  + RunLimits.MAX_SUBFLOW_DEPTH_KEY
                  + " = "
                  + limits.maxSubflowDepth()
                  + " (does a flow start itself, directly or through others?)",
              false));
    }
    int runs = tree.runs().size() + created(undecided);
    if (runs >= limits.maxRunsPerTree()) {
      return Optional.of(
          new StepOutcome.Failed(
              ErrorCodes.TREE_RUNS_EXCEEDED,
              "runs per tree limit reached: step '"
                  + step
                  + "' of run "
                  + parent.runId()
                  + " (flow '"
                  + parent.flowName()
                  + "') would start flow '"
                  + flowName
                  + "' as run "
                  + (runs + 1)
                  + " of tree "
                  + tree.rootRunId()
                  + ", beyond "
                  + RunLimits.MAX_RUNS_PER_TREE_KEY
                  + " = "
                  + limits.maxRunsPerTree(),
              false));
    }
    return Optional.empty();
  }

  /** A root is at depth 0, its children at 1. */
  static int depth(TreeState tree, RunState run) {
    int depth = 0;
    RunState current = run;
    while (current != null && current.parentRunId() != null) {
      depth++;
      current = tree.run(current.parentRunId());
    }
    return depth;
  }

  private static int created(List<PendingEvent> undecided) {
    int count = 0;
    for (PendingEvent event : undecided) {
      if (event.event() instanceof RunCreated) {
        count++;
      }
    }
    return count;
  }
}

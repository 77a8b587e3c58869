package io.baton.engine;

import io.baton.journal.RunStatus;
import io.baton.journal.replay.RunState;
import java.util.ArrayList;
import java.util.List;

/** Cancels runs: their running attempts stop and they are journaled as CANCELLED. */
final class Cancellations {
  private Cancellations() {}

  /** Cancels the run and every unfinished run below it. */
  static void cancel(ActiveTree tree, RunState run, String reason) {
    List<RunState> targets = new ArrayList<>();
    targets.add(run);
    targets.addAll(tree.descendantsOf(run.runId()));
    cancelAll(tree, targets, reason);
  }

  static void cancelDescendants(ActiveTree tree, RunState run, String reason) {
    cancelAll(tree, tree.descendantsOf(run.runId()), reason);
  }

  private static void cancelAll(ActiveTree tree, List<RunState> runs, String reason) {
    for (RunState target : runs) {
      RunStatus current = DecidedStatus.status(tree, target);
      if (current.isTerminal()) {
        continue;
      }
      tree.running
          .entrySet()
          .removeIf(
              entry -> {
                if (entry.getKey().runId().equals(target.runId())) {
                  entry.getValue().cancel();
                  return true;
                }
                return false;
              });
      tree.decide(
          target.runId(), RunStateMachine.transition(current, RunStatus.CANCELLED, reason), null);
    }
  }
}

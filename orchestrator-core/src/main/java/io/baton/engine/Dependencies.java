package io.baton.engine;

import io.baton.flow.Flow;
import io.baton.flow.StepDefinition;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepStatus;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Function;

/** What a run's failed steps block. */
final class Dependencies {
  private Dependencies() {}

  /** The unfinished steps that need a failed step, directly or through other steps. */
  static Set<String> blockedByFailure(RunState run, Flow flow) {
    return blockedByFailure(
        flow, step -> run.hasStep(step) ? run.step(step).status() : StepStatus.PENDING);
  }

  /** Like {@link #blockedByFailure(RunState, Flow)}, on any view of the steps' statuses. */
  static Set<String> blockedByFailure(Flow flow, Function<String, StepStatus> status) {
    Set<String> failed = new HashSet<>();
    for (StepDefinition step : flow.steps()) {
      if (status.apply(step.name()) == StepStatus.FAILED) {
        failed.add(step.name());
      }
    }
    Set<String> blocked = new HashSet<>();
    if (failed.isEmpty()) {
      return blocked;
    }
    boolean grew = true;
    while (grew) {
      grew = false;
      for (StepDefinition step : flow.steps()) {
        if (blocked.contains(step.name()) || failed.contains(step.name())) {
          continue;
        }
        for (String need : step.needs()) {
          if (failed.contains(need) || blocked.contains(need)) {
            grew |= blocked.add(step.name());
            break;
          }
        }
      }
    }
    return blocked;
  }
}

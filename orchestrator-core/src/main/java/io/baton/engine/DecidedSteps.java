package io.baton.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.flow.Flow;
import io.baton.flow.StepDefinition;
import io.baton.journal.ErrorInfo;
import io.baton.journal.JournalEvent;
import io.baton.journal.RunWaiting;
import io.baton.journal.StepCompleted;
import io.baton.journal.StepFailed;
import io.baton.journal.StepRepeated;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepStatus;
import java.util.HashMap;
import java.util.Map;

/**
 * A run's steps as they will be once the outcomes waiting in the tree's buffer are journaled. The
 * engine uses it only to decide whether the run is finished, so that the run's completion goes into
 * the same append as its last step's outcome: both become durable together or not at all. Steps
 * never start on this view; they start on journaled state only.
 */
final class DecidedSteps {
  private final Map<String, StepStatus> statuses = new HashMap<>();
  private final Map<String, JsonNode> outputs = new HashMap<>();
  private final Map<String, ErrorInfo> errors = new HashMap<>();

  private DecidedSteps() {}

  /**
   * The view, or null while any step of the run is running or has an outcome already in flight (the
   * acknowledgement will drive the tree again).
   */
  static DecidedSteps of(ActiveTree tree, RunState run, Flow flow) {
    for (StepKey key : tree.running.keySet()) {
      if (key.runId().equals(run.runId())) {
        return null;
      }
    }
    DecidedSteps decided = new DecidedSteps();
    for (StepDefinition step : flow.steps()) {
      if (run.hasStep(step.name())) {
        decided.statuses.put(step.name(), run.step(step.name()).status());
        decided.outputs.put(step.name(), run.step(step.name()).output());
        decided.errors.put(step.name(), run.step(step.name()).error());
      } else {
        decided.statuses.put(step.name(), StepStatus.PENDING);
      }
    }
    for (PendingEvent pending : tree.appends.buffered()) {
      if (pending.runId().equals(run.runId())) {
        decided.fold(pending.event());
      }
    }
    for (StepKey key : tree.unjournaled) {
      if (key.runId().equals(run.runId()) && !decided.coveredByBuffer(tree, key)) {
        return null;
      }
    }
    return decided;
  }

  private boolean coveredByBuffer(ActiveTree tree, StepKey key) {
    for (PendingEvent pending : tree.appends.buffered()) {
      if (key.equals(pending.outcomeOf())) {
        return true;
      }
    }
    return false;
  }

  private void fold(JournalEvent event) {
    if (event instanceof StepCompleted completed) {
      statuses.put(completed.step(), StepStatus.SUCCEEDED);
      outputs.put(completed.step(), completed.output());
    } else if (event instanceof StepFailed failed) {
      statuses.put(failed.step(), failed.willRetry() ? StepStatus.RETRY_WAIT : StepStatus.FAILED);
      errors.put(failed.step(), failed.error());
    } else if (event instanceof StepRepeated repeated) {
      statuses.put(
          repeated.step(), repeated.nextAt() == null ? StepStatus.PENDING : StepStatus.RETRY_WAIT);
    } else if (event instanceof RunWaiting waiting) {
      statuses.put(waiting.step(), StepStatus.WAITING);
    }
  }

  StepStatus status(String step) {
    return statuses.getOrDefault(step, StepStatus.PENDING);
  }

  Map<String, JsonNode> outputs() {
    Map<String, JsonNode> succeeded = new HashMap<>();
    statuses.forEach(
        (step, status) -> {
          if (status == StepStatus.SUCCEEDED) {
            succeeded.put(step, outputs.get(step));
          }
        });
    return succeeded;
  }

  ErrorInfo error(String step) {
    return errors.get(step);
  }
}

package io.baton.engine;

import io.baton.capability.ErrorCodes;
import io.baton.capability.StepOutcome;
import io.baton.flow.StepDefinition;
import io.baton.journal.JournalCodec;
import io.baton.journal.RunStatus;
import io.baton.journal.RunWoken;
import io.baton.journal.StepCompleted;
import io.baton.journal.WaitReason;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepState;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;

/** Ends waits whose condition came true: a timer fell due, a child run finished. */
final class Waits {
  private Waits() {}

  static void check(
      StepInvoker invoker,
      ActiveTree tree,
      RunState run,
      StepDefinition step,
      StepState state,
      Instant now) {
    if (state.waitReason() == WaitReason.TIMER && !now.isBefore(state.dueAt())) {
      StepKey key = new StepKey(run.runId(), step.name());
      tree.decide(run.runId(), new RunWoken(step.name(), WaitReason.TIMER, "due", null), key);
      tree.decide(
          run.runId(),
          new StepCompleted(
              step.name(),
              state.nextAttempt(),
              JournalCodec.mapper().createObjectNode().put("sleptUntil", state.dueAt().toString()),
              state.waitingSince()),
          key);
    } else if (state.waitReason() == WaitReason.CHILD) {
      childFinished(invoker, tree, run, step, state);
    }
  }

  private static void childFinished(
      StepInvoker invoker, ActiveTree tree, RunState run, StepDefinition step, StepState state) {
    UUID childId = UUID.fromString(state.waitDetail().path("childRunId").asText());
    RunState child = tree.state.run(childId);
    if (child == null || !child.status().isTerminal()) {
      return;
    }
    StepKey key = new StepKey(run.runId(), step.name());
    tree.decide(
        run.runId(),
        new RunWoken(
            step.name(),
            WaitReason.CHILD,
            "child-finished",
            JournalCodec.mapper()
                .createObjectNode()
                .put("childRunId", childId.toString())
                .put("status", child.status().name())),
        key);
    if (child.status() == RunStatus.SUCCEEDED) {
      tree.decide(
          run.runId(),
          new StepCompleted(step.name(), state.nextAttempt(), child.output(), state.waitingSince()),
          key);
      return;
    }
    String code =
        child.status() == RunStatus.CANCELLED
            ? ErrorCodes.CANCELLED
            : child.error() != null ? child.error().code() : ErrorCodes.SUBFLOW_FAILED;
    String message =
        "subflow "
            + childId
            + " "
            + child.status().name().toLowerCase(Locale.ROOT)
            + (child.statusReason().isEmpty() ? "" : ": " + child.statusReason());
    invoker.fail(
        tree,
        run,
        step,
        state.nextAttempt(),
        new StepOutcome.Failed(code, message, false),
        state.waitingSince());
  }
}

package io.baton.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.capability.ErrorCodes;
import io.baton.internal.Defect;
import io.baton.journal.CommandApplied;
import io.baton.journal.JournalCodec;
import io.baton.journal.RunWoken;
import io.baton.journal.StepCompleted;
import io.baton.journal.StepFailed;
import io.baton.journal.WaitReason;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepState;
import io.baton.journal.replay.StepStatus;
import io.baton.store.Signal;
import io.baton.store.SignalType;
import java.util.List;

/**
 * Applies signals from a tree's inbox: cancellations, approvals, rejections, retry-now. A signal
 * that no longer applies (the run finished, nothing waits for approval, the step is not in
 * back-off) is stale and only deleted. Signals are deleted once the events they caused are
 * journaled.
 */
final class SignalHandler {
  private final SignalReceipts receipts;

  SignalHandler(SignalReceipts receipts) {
    this.receipts = receipts;
  }

  void apply(ActiveTree tree) {
    if (!tree.appends.submitted() && !tree.deferred.isEmpty()) {
      tree.inbox.addAll(tree.deferred);
      tree.deferred.clear();
    }
    Signal signal;
    boolean stale = false;
    while ((signal = tree.inbox.poll()) != null) {
      RunState run = tree.state.run(signal.runId());
      if (run != null && DecidedStatus.status(tree, run).isTerminal()) {
        tree.appends.answered(signal.id());
        stale = true;
        continue;
      }
      if (run == null || (signal.type() != SignalType.CANCEL && !applies(tree, run, signal))) {
        if (lagging(tree)) {
          defer(tree, signal);
        } else {
          tree.appends.answered(signal.id());
          stale = true;
        }
        continue;
      }
      tree.appends.answered(signal.id());
      if (signal.type() == SignalType.CANCEL) {
        tree.decide(run.runId(), applied("cancel", signal.payload()), null);
        Cancellations.cancel(tree, run, "cancelled" + by(signal.payload()));
      }
    }
    if (stale && tree.appends.empty()) {
      receipts.answered("delete stale signals", tree.appends.takeAnswered());
    }
  }

  /**
   * Whether the journal may hold more of the tree than its state: an append is submitted and not
   * yet acknowledged (it may have committed, and a client may have read it and signalled).
   */
  private static boolean lagging(ActiveTree tree) {
    return tree.appends.submitted() && !Defect.STALE_SIGNALS_WHILE_LAGGING.isActive();
  }

  private static void defer(ActiveTree tree, Signal signal) {
    if (tree.deferred.stream().noneMatch(s -> s.id() == signal.id())) {
      tree.deferred.add(signal);
    }
  }

  /** Applies an approval, a rejection or a retry-now; false when nothing waits for it. */
  private boolean applies(ActiveTree tree, RunState run, Signal signal) {
    if (signal.type() != SignalType.RETRY_NOW) {
      return answer(tree, run, signal);
    }
    if (!RetryNow.apply(tree, run, signal)) {
      return false;
    }
    tree.decide(run.runId(), applied(RetryNow.COMMAND, signal.payload()), null);
    return true;
  }

  /** Approves or rejects the waiting approval steps the signal names; false when none waits. */
  private boolean answer(ActiveTree tree, RunState run, Signal signal) {
    boolean answered = false;
    for (StepState step : List.copyOf(run.steps())) {
      StepKey key = new StepKey(run.runId(), step.name());
      if (step.status() != StepStatus.WAITING
          || step.waitReason() != WaitReason.APPROVAL
          || tree.busy(key)
          || (signal.step() != null && !signal.step().equals(step.name()))) {
        continue;
      }
      boolean approved = signal.type() == SignalType.APPROVE;
      tree.decide(
          run.runId(),
          new RunWoken(
              step.name(),
              WaitReason.APPROVAL,
              approved ? "approved" : "rejected",
              signal.payload()),
          key);
      if (approved) {
        tree.decide(
            run.runId(),
            new StepCompleted(
                step.name(), step.nextAttempt(), decision(signal.payload()), step.waitingSince()),
            key);
      } else {
        tree.decide(
            run.runId(),
            new StepFailed(
                step.name(),
                step.nextAttempt(),
                ErrorCodes.REJECTED,
                "rejected" + by(signal.payload()),
                false,
                null,
                step.waitingSince()),
            key);
      }
      answered = true;
    }
    if (answered) {
      String command = signal.type() == SignalType.APPROVE ? "approve" : "reject";
      tree.decide(run.runId(), applied(command, signal.payload()), null);
    }
    return answered;
  }

  /** The record of who sent the signal, how they proved it and why. */
  private static CommandApplied applied(String command, JsonNode payload) {
    return new CommandApplied(
        command,
        payload.path("by").asText(""),
        payload.path("via").asText(""),
        payload.path("comment").asText(""));
  }

  private static JsonNode decision(JsonNode payload) {
    ObjectNode output = JournalCodec.mapper().createObjectNode().put("approved", true);
    if (payload.hasNonNull("by")) {
      output.set("by", payload.get("by"));
    }
    if (payload.hasNonNull("comment")) {
      output.set("comment", payload.get("comment"));
    }
    return output;
  }

  private static String by(JsonNode payload) {
    String who = payload.path("by").asText("");
    String comment = payload.path("comment").asText("");
    return (who.isEmpty() ? "" : " by " + who) + (comment.isEmpty() ? "" : ": " + comment);
  }
}

package io.baton.engine;

import io.baton.flow.Flow;
import io.baton.flow.RecoveryPolicy;
import io.baton.internal.Defect;
import io.baton.journal.ClaimReason;
import io.baton.journal.JournalEvent;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunStatus;
import io.baton.journal.WaitReason;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepState;
import io.baton.journal.replay.StepStatus;
import io.baton.journal.replay.TreeState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * What a node journals when it claims a tree, and whether it then executes it. Terminal trees are
 * never touched (except a resume of a failed, recoverable one); a RUNNING tree whose owner stopped
 * while one of its steps may have been executing is resumed, failed or cancelled as its flow's
 * recovery policy says, and one handed over between steps simply continues. A claim made to wake or
 * start a run leaves it alone if it is RUNNING by then: another node woke or started it and
 * executes it.
 *
 * @param events run ids and events, in journal order; empty when there is nothing to do
 */
record ClaimDecision(List<Planned> events, boolean adopt, ClaimOutcome outcome) {
  record Planned(UUID runId, JournalEvent event) implements TreeAppends.Decided {}

  static ClaimDecision nothing() {
    return new ClaimDecision(List.of(), false, ClaimOutcome.NOTHING_TO_DO);
  }

  /**
   * @param lostBy the node the claimer believes lost the tree (its lease ended), or null when the
   *     claim is not about a lost tree
   * @param resumedBy who asked to resume a FAILED tree (recorded in the journal), or null
   */
  static ClaimDecision decide(
      String nodeId,
      long token,
      ClaimReason reason,
      String lostBy,
      CommandOrigin resumedBy,
      TreeState tree,
      Flow rootFlow,
      boolean hasSignals,
      Instant now) {
    RunState root = tree.root();
    return switch (root.status()) {
      case SUCCEEDED, CANCELLED -> nothing();
      case FAILED ->
          reason == ClaimReason.RESUME && root.recoverable()
              ? resume(nodeId, token, tree, resumedBy)
              : nothing();
      case PENDING ->
          start(
              nodeId,
              token,
              tree,
              ClaimReason.PENDING,
              RunStatus.PENDING,
              "started by node " + nodeId);
      case WAITING -> woken(nodeId, token, reason, tree, hasSignals, now);
      case RUNNING ->
          executing(reason, lostBy, tree)
              ? nothing()
              : interrupted(nodeId, token, reason, tree, rootFlow, now);
    };
  }

  /**
   * Whether a RUNNING tree is in its owner's hands after all: someone woke or started it since the
   * claimer looked (a wake or pending claim), or the lease that ended was not the one that fences
   * it (a stray run key of another node expired; the owner named in the journal is another).
   */
  private static boolean executing(ClaimReason reason, String lostBy, TreeState tree) {
    return reason == ClaimReason.WAKE
        || reason == ClaimReason.PENDING
        || (lostBy != null && !lostBy.isEmpty() && !lostBy.equals(tree.owner()));
  }

  private static RunClaimed claim(String nodeId, long token, TreeState tree, ClaimReason reason) {
    return new RunClaimed(nodeId, token, tree.owner(), reason);
  }

  private static ClaimDecision start(
      String nodeId, long token, TreeState tree, ClaimReason reason, RunStatus from, String why) {
    List<Planned> events = new ArrayList<>();
    events.add(new Planned(tree.rootRunId(), claim(nodeId, token, tree, reason)));
    events.add(
        new Planned(tree.rootRunId(), RunStateMachine.transition(from, RunStatus.RUNNING, why)));
    return new ClaimDecision(events, true, ClaimOutcome.ADOPTED);
  }

  private static ClaimDecision woken(
      String nodeId,
      long token,
      ClaimReason reason,
      TreeState tree,
      boolean hasSignals,
      Instant now) {
    Instant wakeAt = tree.root().wakeAt();
    boolean due = wakeAt != null && !wakeAt.isAfter(now);
    if (reason != ClaimReason.WAKE && !due && !hasSignals) {
      return nothing();
    }
    return start(
        nodeId,
        token,
        tree,
        ClaimReason.WAKE,
        RunStatus.WAITING,
        hasSignals ? "woken by a signal" : "woken: due at " + wakeAt);
  }

  /**
   * A RUNNING root whose owner is gone. Only a tree with a step that may have been executing is
   * interrupted (see {@link Interruptions}): the policy settles it. A tree handed over between
   * steps (a drain, an ambiguous submit claimed again) continues, whatever the policy.
   */
  private static ClaimDecision interrupted(
      String nodeId, long token, ClaimReason reason, TreeState tree, Flow rootFlow, Instant now) {
    RunState root = tree.root();
    String previous = tree.owner() == null ? "(none)" : tree.owner();
    List<Planned> events = new ArrayList<>();
    events.add(new Planned(root.runId(), claim(nodeId, token, tree, reason)));
    List<String> inFlight = Interruptions.inFlight(tree);
    boolean interrupted = Interruptions.tracked(rootFlow) && !inFlight.isEmpty();
    if (!interrupted && !Defect.POLICY_ON_EVERY_ADOPTION.isActive()) {
      return new ClaimDecision(events, true, ClaimOutcome.ADOPTED);
    }
    String stopped =
        "node "
            + previous
            + " stopped while "
            + (inFlight.isEmpty() ? "the run" : "step " + String.join(", ", inFlight))
            + " was running";
    Duration maxAge = rootFlow.definition().maxResumeAge();
    if (maxAge != null && now.isAfter(root.createdAt().plus(maxAge))) {
      settleAll(
          tree,
          events,
          RunStatus.CANCELLED,
          false,
          stopped
              + " and the run is older than its maxResumeAge "
              + maxAge
              + "; cancelled by node "
              + nodeId);
      return new ClaimDecision(events, false, ClaimOutcome.SETTLED);
    }
    if (rootFlow.definition().recovery() == RecoveryPolicy.FAIL) {
      settleAll(tree, events, RunStatus.FAILED, true, stopped);
      return new ClaimDecision(events, false, ClaimOutcome.SETTLED);
    }
    return new ClaimDecision(events, true, ClaimOutcome.ADOPTED);
  }

  private static void settleAll(
      TreeState tree, List<Planned> events, RunStatus to, boolean recoverable, String reason) {
    for (RunState run : tree.runs()) {
      if (!run.status().isTerminal()) {
        events.add(
            new Planned(
                run.runId(),
                RunStateMachine.transition(run.status(), to, reason, recoverable, null)));
      }
    }
  }

  /** Resumes the root and the failed subflows its steps still wait for. */
  private static ClaimDecision resume(
      String nodeId, long token, TreeState tree, CommandOrigin resumedBy) {
    String by = resumedBy == null ? null : resumedBy.by();
    String reason = by == null || by.isBlank() ? "resumed" : "resumed by " + by;
    List<Planned> events = new ArrayList<>();
    events.add(new Planned(tree.rootRunId(), claim(nodeId, token, tree, ClaimReason.RESUME)));
    if (resumedBy != null) {
      events.add(new Planned(tree.rootRunId(), resumedBy.applied("resume")));
    }
    Set<UUID> resumed = new HashSet<>();
    for (RunState run : tree.runs()) {
      if (run.status() == RunStatus.FAILED
          && run.recoverable()
          && (run.isRoot() || (resumed.contains(run.parentRunId()) && awaited(tree, run)))) {
        resumed.add(run.runId());
        events.add(
            new Planned(
                run.runId(),
                RunStateMachine.transition(RunStatus.FAILED, RunStatus.RUNNING, reason)));
      }
    }
    return new ClaimDecision(events, true, ClaimOutcome.ADOPTED);
  }

  private static boolean awaited(TreeState tree, RunState child) {
    RunState parent = tree.run(child.parentRunId());
    if (!parent.hasStep(child.parentStep())) {
      return false;
    }
    StepState step = parent.step(child.parentStep());
    return step.status() == StepStatus.WAITING
        && step.waitReason() == WaitReason.CHILD
        && child.runId().toString().equals(step.waitDetail().path("childRunId").asText());
  }
}

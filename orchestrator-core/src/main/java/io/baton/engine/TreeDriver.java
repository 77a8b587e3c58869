package io.baton.engine;

import io.baton.flow.Flow;
import io.baton.flow.StepDefinition;
import io.baton.internal.Defect;
import io.baton.journal.RunStatus;
import io.baton.journal.RunWait;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepState;
import io.baton.journal.replay.StepStatus;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * Decides what a tree does next, from its journaled state: which steps start, which waits end,
 * which runs finish, change status or park. Runs on the engine's loop; every decision becomes an
 * event in the tree's buffer (journaled before it counts) or an invocation.
 */
final class TreeDriver {
  private final Scheduler scheduler;
  private final Duration parkAfter;
  private final StepInvoker invoker;
  private final SignalHandler signals;
  private final AppendPipeline appends;
  private final Wakeups wakeups;
  private final TreeLoop loop;
  private final BooleanSupplier mayStartSteps;
  private final Predicate<ActiveTree> current;

  /**
   * @param mayStartSteps whether new attempts may start (not while suspended or draining)
   * @param current whether the tree was adopted under the node's current lease
   */
  TreeDriver(
      Scheduler scheduler,
      Duration parkAfter,
      StepInvoker invoker,
      SignalHandler signals,
      AppendPipeline appends,
      Wakeups wakeups,
      TreeLoop loop,
      BooleanSupplier mayStartSteps,
      Predicate<ActiveTree> current) {
    this.scheduler = scheduler;
    this.parkAfter = parkAfter;
    this.invoker = invoker;
    this.signals = signals;
    this.appends = appends;
    this.wakeups = wakeups;
    this.loop = loop;
    this.mayStartSteps = mayStartSteps;
    this.current = current;
  }

  void drive(ActiveTree tree) {
    if (tree.retired()) {
      return;
    }
    if (!current.test(tree)) {
      loop.retire(tree, false);
      return;
    }
    Instant now = scheduler.now();
    signals.apply(tree);
    invoker.invokeStarted(tree);
    Set<UUID> blocked = new HashSet<>();
    for (RunState run : List.copyOf(tree.state.runs())) {
      if (DecidedStatus.status(tree, run).isTerminal()) {
        continue;
      }
      if (parentCancelled(tree, run)) {
        // a child whose creation was still being journaled when its parent was cancelled
        Cancellations.cancel(tree, run, "its parent run was cancelled");
        continue;
      }
      advance(tree, run, now, blocked);
    }
    updateStatuses(tree, now, blocked);
    appends.flush(tree);
    if (tree.quiet() && finishedOrParked(tree)) {
      loop.retire(tree, true);
      return;
    }
    if (tree.leaving != null && (tree.quiet() || Defect.LET_GO_MID_STEP.isActive())) {
      // let go at this step boundary: nothing of the tree is in flight or unjournaled
      loop.handOver(tree);
      return;
    }
    wakeups.arm(tree, now);
  }

  private static boolean parentCancelled(ActiveTree tree, RunState run) {
    UUID parentId = run.parentRunId();
    RunState parent = parentId == null ? null : tree.state.run(parentId);
    return parent != null && DecidedStatus.status(tree, parent) == RunStatus.CANCELLED;
  }

  private static boolean finishedOrParked(ActiveTree tree) {
    RunStatus root = tree.state.root().status();
    return root.isTerminal() || root == RunStatus.WAITING;
  }

  /**
   * Starts what is ready, ends waits that are over, and finishes the run once nothing more can
   * happen in it. A failed step stops only the steps that depend on it: independent branches run to
   * their own end, so a run's final state depends on its flow and its steps' outcomes, never on
   * timing (and a run replayed after a crash ends exactly as it would have).
   */
  private void advance(ActiveTree tree, RunState run, Instant now, Set<UUID> blocked) {
    Flow flow = tree.flowOf(run);
    Set<String> doomed = Dependencies.blockedByFailure(run, flow);
    for (StepDefinition step : flow.steps()) {
      StepState state = run.hasStep(step.name()) ? run.step(step.name()) : null;
      StepStatus status = state == null ? StepStatus.PENDING : state.status();
      StepKey key = new StepKey(run.runId(), step.name());
      if (status.isFinished() || doomed.contains(step.name()) || tree.busy(key)) {
        continue;
      }
      if (status == StepStatus.WAITING) {
        Waits.check(invoker, tree, run, step, state, now);
      } else if (ready(run, step, state, now)) {
        if (mayStartSteps.getAsBoolean() && executing(tree) && tree.leaving == null) {
          invoker.start(tree, run, step, state);
        } else {
          blocked.add(run.runId());
        }
      }
    }
    if (!DecidedStatus.status(tree, run).isTerminal()) {
      Completion.finishIfDone(tree, run, flow);
    }
  }

  /**
   * Whether the tree's root is journaled RUNNING. Steps start only then: a root journaled WAITING
   * (parked, then given work by a signal before the tree left memory) is journaled RUNNING first,
   * so that the row tells the truth to recovery and to other nodes' due passes.
   */
  private static boolean executing(ActiveTree tree) {
    return tree.state.root().status() == RunStatus.RUNNING
        || Defect.EXECUTE_WHILE_PARKED.isActive();
  }

  /** Whether the step may start now: dependencies succeeded, and any back-off is over. */
  private static boolean ready(RunState run, StepDefinition step, StepState state, Instant now) {
    if (state != null && state.status() == StepStatus.RETRY_WAIT) {
      return !now.isBefore(state.retryAt());
    }
    for (String need : step.needs()) {
      if (!run.hasStep(need) || run.step(need).status() != StepStatus.SUCCEEDED) {
        return false;
      }
    }
    return true;
  }

  /**
   * Subflow runs are RUNNING while they have work and WAITING while they only wait. The root stays
   * RUNNING while its tree is here, and becomes WAITING when the whole tree parks: nothing runs,
   * nothing is due soon, so the lease is released and the tree leaves memory.
   */
  private void updateStatuses(ActiveTree tree, Instant now, Set<UUID> blocked) {
    Instant soon = now.plus(parkAfter);
    boolean treeActive = tree.appends.submitted() || !tree.running.isEmpty();
    for (RunState run : tree.state.runs()) {
      RunStatus current = DecidedStatus.status(tree, run);
      if (current.isTerminal()) {
        continue;
      }
      Instant due = Wakeups.earliestDue(run);
      boolean active =
          tree.busy(run.runId())
              || blocked.contains(run.runId())
              || (due != null && due.isBefore(soon));
      treeActive |= active;
      if (!run.isRoot()) {
        RunStatus desired = active ? RunStatus.RUNNING : RunStatus.WAITING;
        if (current != desired) {
          RunWait waiting =
              desired == RunStatus.WAITING ? ParkedWait.of(run, tree.flowOf(run)) : null;
          tree.decide(
              run.runId(),
              RunStateMachine.transition(
                  current, desired, reasonFor(desired), false, null, waiting),
              null);
        }
      }
    }
    park(tree, treeActive);
  }

  private static String reasonFor(RunStatus status) {
    return status == RunStatus.RUNNING ? "has work to do" : "waiting";
  }

  /**
   * Parks a root that only waits, and wakes in place a root journaled WAITING that has work again
   * (a signal arrived while the park was being journaled): its WAITING→RUNNING joins the next
   * append.
   */
  private void park(ActiveTree tree, boolean treeActive) {
    RunState root = tree.state.root();
    RunStatus current = DecidedStatus.status(tree, root);
    if (current == RunStatus.WAITING
        && (treeActive || DecidedStatus.hasOutcomes(tree))
        && !Defect.EXECUTE_WHILE_PARKED.isActive()) {
      tree.decide(
          root.runId(),
          RunStateMachine.transition(RunStatus.WAITING, RunStatus.RUNNING, "has work to do"),
          null);
      return;
    }
    if (treeActive || current != RunStatus.RUNNING || DecidedStatus.hasOutcomes(tree)) {
      return;
    }
    Instant wakeAt = Wakeups.earliestDue(tree);
    tree.decide(
        root.runId(),
        RunStateMachine.transition(
            RunStatus.RUNNING,
            RunStatus.WAITING,
            Wakeups.describe(tree),
            false,
            wakeAt,
            ParkedWait.of(root, tree.flowOf(root))),
        null);
  }
}

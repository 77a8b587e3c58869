package io.baton.sim;

import io.baton.capability.Invocation;
import io.baton.journal.AppendRequest;
import io.baton.journal.ClaimReason;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.journal.RunStatusChanged;
import io.baton.journal.replay.Replay;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.StepState;
import io.baton.journal.replay.StepStatus;
import io.baton.journal.replay.TreeState;
import io.baton.lease.ConnectionState;
import io.baton.lease.memory.InMemoryLeaseService;
import io.baton.store.RunRecord;
import io.baton.store.Stores;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The simulation's oracle beyond the journal's own invariants ({@link SimInvariants}): it watches
 * every step invocation and every lease acquisition as they happen, and at the end checks what the
 * recovery policy did against what really ran. Independent of the engine's own bookkeeping: it
 * knows what ran from the capabilities and what the lease service held from the lease service.
 *
 * <ul>
 *   <li>self-fencing: a node invokes a step only while its lease is CONNECTED;
 *   <li>status truth: the owner of a tree executes a step only while the root is journaled RUNNING;
 *   <li>no stale lease: the owner executes a tree only under a token of its current lease;
 *   <li>no steal: a RUNNING tree is acquired by another node only once the lease that fenced it has
 *       died (a re-granted lease keeps the runs it started);
 *   <li>a hand-off is not an interruption: the recovery policy settles a tree only where a step may
 *       have been executing (an invocation, or a journaled start, without an outcome);
 *   <li>{@code recovery: fail} is honoured: no attempt of a step of such a flow is invoked twice
 *       without a person resuming the run in between;
 *   <li>no signal outlives its finished tree.
 * </ul>
 *
 * Single-threaded, like the simulation.
 */
final class SimOracle {
  /** What a node reports about itself to the oracle. */
  record NodeView(ConnectionState leaseState) {}

  private record Invoked(
      String node, UUID root, UUID runId, String step, int attempt, Instant at) {}

  private final Stores stores;
  private final InMemoryLeaseService leaseService;
  private final LeaseLedger ledger;
  private final Set<String> failFlows;
  private final Supplier<Instant> now;
  private final Function<UUID, Set<Long>> appendedWithAClaim;
  private final List<Invoked> invocations = new ArrayList<>();
  final List<String> violations = new ArrayList<>();

  SimOracle(
      Stores stores,
      InMemoryLeaseService leaseService,
      LeaseLedger ledger,
      Set<String> failFlows,
      Supplier<Instant> now,
      Function<UUID, Set<Long>> appendedWithAClaim) {
    this.stores = stores;
    this.leaseService = leaseService;
    this.ledger = ledger;
    this.failFlows = failFlows;
    this.now = now;
    this.appendedWithAClaim = appendedWithAClaim;
  }

  // --- as it happens -------------------------------------------------------------------------

  /**
   * {@code by}'s failure detector revoked {@code node}'s lease; {@code processAlive} says whether a
   * process of {@code node} was running (paused or not) at that moment. Only a dead process may be
   * revoked: a probe that found no evidence is not a death.
   */
  void revoked(String by, String node, boolean processAlive) {
    if (processAlive) {
      violations.add(
          by + " revoked the lease of " + node + " at " + now.get() + " while its process ran");
    }
  }

  /** {@code node} (one process of it, which reports itself as {@code self}) invokes a step. */
  void invoked(String node, NodeView self, Invocation invocation) {
    UUID root =
        stores.metadata().findRun(invocation.runId()).map(RunRecord::rootRunId).orElse(null);
    if (root == null) {
      violations.add(node + " invoked a step of run " + invocation.runId() + " that has no row");
      return;
    }
    invocations.add(
        new Invoked(
            node,
            root,
            invocation.runId(),
            invocation.stepName(),
            invocation.attempt(),
            now.get()));
    String what = node + " invoked " + invocation.runId() + "/" + invocation.stepName();
    if (self.leaseState() != ConnectionState.CONNECTED) {
      violations.add(what + " while its lease was " + self.leaseState());
    }
    TreeState tree = Replay.replay(stores.journal(), root).orElseThrow();
    if (!node.equals(tree.owner())) {
      return; // a zombie: the fence stops what it writes
    }
    if (tree.root().status() != RunStatus.RUNNING) {
      violations.add(what + " while its root " + root + " was " + tree.root().status());
    }
    OptionalLong lease = ledger.leaseOf(tree.token());
    OptionalLong current = leaseService.liveNodeToken(node);
    if (lease.isPresent() && current.isPresent() && !lease.equals(current)) {
      violations.add(
          what
              + " under token "
              + tree.token()
              + " of a lease it had lost (now holds a newer one)");
    }
  }

  /**
   * The journal accepted {@code claim}; {@code tree} is the tree just before it. A RUNNING tree may
   * be claimed from another node only once the lease that fenced it has died.
   */
  void claimed(AppendRequest claim, TreeState tree) {
    RunClaimed claimed =
        claim.entries().stream()
            .map(JournalEntry::event)
            .filter(RunClaimed.class::isInstance)
            .map(RunClaimed.class::cast)
            .findFirst()
            .orElseThrow();
    String node = claimed.node();
    UUID root = claim.rootRunId();
    String owner = tree.owner();
    if (claimed.reason() == ClaimReason.REBALANCE) {
      letGoAtStepBoundary(node, owner, root, tree);
      return;
    }
    if (tree.root() == null
        || tree.root().status() != RunStatus.RUNNING
        || owner == null
        || owner.equals(node)) {
      return;
    }
    OptionalLong lease = ledger.leaseOf(tree.token());
    if (lease.isPresent() && lease.equals(leaseService.liveNodeToken(owner))) {
      violations.add(
          node
              + " claimed RUNNING run "
              + root
              + " while the lease of its owner "
              + owner
              + " that fences it (token "
              + tree.token()
              + ") was alive; claims "
              + tree.claims().stream()
                  .map(c -> c.node() + "@" + c.token() + " " + c.reason())
                  .toList());
    }
  }

  /**
   * A run moved by rebalancing is claimed from a live owner, so the owner must have let it go at a
   * step boundary: every step its owner invoked has its outcome journaled before the claim.
   */
  private void letGoAtStepBoundary(String node, String owner, UUID root, TreeState tree) {
    for (Invoked invoked : invocations) {
      if (!invoked.root().equals(root) || !invoked.node().equals(owner)) {
        continue;
      }
      RunState run = tree.run(invoked.runId());
      StepState step =
          run == null || !run.hasStep(invoked.step()) ? null : run.step(invoked.step());
      // a suspended step (a subflow call, an approval, a timer) is WAITING on its journaled outcome
      boolean outcome =
          step != null
              && (step.status() == StepStatus.WAITING
                  || step.attempts() > invoked.attempt()
                  || (step.attempts() == invoked.attempt() && step.status() != StepStatus.PENDING));
      if (!outcome) {
        violations.add(
            node
                + " took run "
                + root
                + " from "
                + owner
                + " by rebalancing while its step "
                + invoked.runId()
                + "/"
                + invoked.step()
                + "#"
                + invoked.attempt()
                + " had no journaled outcome (moved mid-step)");
        return;
      }
    }
  }

  // --- at the end ----------------------------------------------------------------------------

  List<String> check(Collection<UUID> roots) {
    List<String> found = new ArrayList<>(violations);
    for (UUID root : roots) {
      List<JournalEntry> journal = stores.journal().readHistory(root, 1, 1_000_000);
      List<Invoked> ran = invocations.stream().filter(i -> i.root().equals(root)).toList();
      found.addAll(policyOnlyWhereInterrupted(root, journal, ran));
      if (!journal.isEmpty() && failFlows.contains(flowOf(journal))) {
        found.addAll(failedRunsAreNotRerun(journal, ran));
      }
      if (Replay.fold(root, journal).root().status().isTerminal()
          && !stores.metadata().signalsFor(root).isEmpty()) {
        found.add(
            "finished run " + root + " still has signals " + stores.metadata().signalsFor(root));
      }
    }
    return found;
  }

  private static String flowOf(List<JournalEntry> journal) {
    return ((RunCreated) journal.get(0).event()).flowName();
  }

  /**
   * Every settlement by the recovery policy (a claim that fails a RUNNING tree, or cancels it past
   * its maxResumeAge) needs a step that may have been executing: an invocation of the tree with no
   * outcome journaled before the claim, or a journaled start without one.
   */
  private List<String> policyOnlyWhereInterrupted(
      UUID root, List<JournalEntry> journal, List<Invoked> ran) {
    List<String> found = new ArrayList<>();
    Set<Long> withClaims = appendedWithAClaim.apply(root);
    TreeState tree = new TreeState(root);
    boolean justified = false;
    for (JournalEntry entry : journal) {
      if (entry.event() instanceof RunClaimed) {
        justified = interrupted(tree, ran, entry.timestamp());
      } else if (withClaims.contains(entry.seq())
          && entry.event() instanceof RunStatusChanged changed
          && (changed.to() == RunStatus.FAILED || changed.to() == RunStatus.CANCELLED)
          && !justified) {
        found.add(
            "run "
                + entry.runId()
                + " seq "
                + entry.seq()
                + " was settled by its recovery policy ("
                + changed.reason()
                + ") although no step was executing when its owner lost it");
      }
      tree.apply(entry);
    }
    return found;
  }

  private static boolean interrupted(TreeState tree, List<Invoked> ran, Instant claimedAt) {
    for (RunState run : tree.runs()) {
      if (run.status().isTerminal()) {
        continue;
      }
      for (StepState step : run.steps()) {
        if (step.inFlight()) {
          return true;
        }
      }
    }
    for (Invoked invoked : ran) {
      RunState run = tree.run(invoked.runId());
      if (invoked.at().isAfter(claimedAt) || run == null || run.status().isTerminal()) {
        continue;
      }
      StepState step = run.hasStep(invoked.step()) ? run.step(invoked.step()) : null;
      boolean outcomeJournaled =
          step != null
              && (step.status().isFinished()
                  || step.status() == StepStatus.WAITING
                  || step.attempts() >= invoked.attempt());
      if (!outcomeJournaled) {
        return true;
      }
    }
    return false;
  }

  /**
   * In a {@code recovery: fail} tree an attempt runs at most once until a person resumes the run:
   * an interrupted attempt fails the run instead of running again.
   */
  private static List<String> failedRunsAreNotRerun(List<JournalEntry> journal, List<Invoked> ran) {
    List<String> found = new ArrayList<>();
    Map<String, Invoked> first = new HashMap<>();
    for (Invoked invoked : ran) {
      String attempt = invoked.runId() + "/" + invoked.step() + "#" + invoked.attempt();
      Invoked earlier = first.putIfAbsent(attempt, invoked);
      if (earlier != null && !resumedBetween(journal, earlier.at(), invoked.at())) {
        found.add(
            "attempt "
                + attempt
                + " of a recovery: fail flow ran on "
                + earlier.node()
                + " at "
                + earlier.at()
                + " and again on "
                + invoked.node()
                + " at "
                + invoked.at()
                + " without a resume");
      }
      if (earlier != null) {
        first.put(attempt, invoked);
      }
    }
    return found;
  }

  private static boolean resumedBetween(List<JournalEntry> journal, Instant from, Instant to) {
    for (JournalEntry entry : journal) {
      if (entry.event() instanceof RunStatusChanged changed
          && changed.from() == RunStatus.FAILED
          && changed.to() == RunStatus.RUNNING
          && !entry.timestamp().isBefore(from)
          && !entry.timestamp().isAfter(to)) {
        return true;
      }
    }
    return false;
  }
}

package io.baton.sim;

import io.baton.capability.ErrorCodes;
import io.baton.engine.RunLimits;
import io.baton.engine.RunStateMachine;
import io.baton.journal.ClaimReason;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunCompleted;
import io.baton.journal.RunStatus;
import io.baton.journal.RunStatusChanged;
import io.baton.journal.StepCompleted;
import io.baton.journal.replay.Replay;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.TreeState;
import io.baton.store.RunRecord;
import io.baton.store.Stores;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * What must hold after every simulated seed, checked from the stores alone: every acknowledged run
 * exists and finished; journals are gapless; no step completion is journaled twice; every status
 * change follows the status machine from the run's actual status; claims carry growing tokens that
 * the lease service really granted to that node; run rows agree with their journals; a finished
 * root has no unfinished subflow; no tree outgrows the nodes' {@link RunLimits}, and a runaway tree
 * that nobody cancelled failed at one of them.
 */
final class SimInvariants {
  private SimInvariants() {}

  static List<String> check(
      Stores stores,
      Set<String> grants,
      List<String> keys,
      Map<String, UUID> acked,
      RunLimits limits) {
    List<String> violations = new ArrayList<>();
    Set<UUID> roots = new LinkedHashSet<>();
    for (String key : keys) {
      Optional<RunRecord> run = stores.metadata().findRunByIdempotencyKey(key);
      UUID expected = acked.get(key);
      if (expected != null && run.map(r -> !r.runId().equals(expected)).orElse(true)) {
        violations.add(
            "run " + expected + " of submission " + key + " was acknowledged but is lost");
      }
      run.ifPresent(r -> roots.add(r.runId()));
    }
    for (UUID root : roots) {
      violations.addAll(checkTree(stores, grants, root));
      violations.addAll(checkLimits(stores, root, limits));
    }
    return violations;
  }

  private static List<String> checkTree(Stores stores, Set<String> grants, UUID root) {
    List<String> violations = new ArrayList<>();
    List<JournalEntry> entries = stores.journal().readHistory(root, 1, 1_000_000);
    TreeState tree = new TreeState(root);
    Set<String> completed = new HashSet<>();
    long lastClaimToken = 0;
    for (JournalEntry entry : entries) {
      if (entry.seq() != tree.lastSeq() + 1) {
        violations.add(
            "journal of run " + root + " jumps from seq " + tree.lastSeq() + " to " + entry.seq());
        return violations;
      }
      RunState run = tree.run(entry.runId());
      String where = "run " + entry.runId() + " seq " + entry.seq() + ": ";
      if (entry.event() instanceof StepCompleted step
          && !completed.add(entry.runId() + "/" + step.step())) {
        violations.add(where + "step " + step.step() + " completed twice");
      } else if (entry.event() instanceof RunStatusChanged changed) {
        if (run == null
            || changed.from() != run.status()
            || !RunStateMachine.allows(changed.from(), changed.to())) {
          violations.add(
              where
                  + changed.from()
                  + " -> "
                  + changed.to()
                  + " but the run was "
                  + (run == null ? "absent" : run.status()));
        }
      } else if (entry.event() instanceof RunCompleted
          && (run == null || run.status() != RunStatus.RUNNING)) {
        violations.add(where + "completed while " + (run == null ? "absent" : run.status()));
      } else if (entry.event() instanceof RunClaimed claim) {
        if (claim.token() < lastClaimToken) {
          violations.add(
              where + "claim token " + claim.token() + " is older than " + lastClaimToken);
        }
        boolean granted =
            claim.reason() == ClaimReason.SUBMIT
                ? grants.contains(SimLeaseManager.nodeGrant(claim.node(), claim.token()))
                : grants.contains(SimLeaseManager.grant(root, claim.node(), claim.token()));
        if (!granted) {
          violations.add(
              where
                  + claim.node()
                  + " claimed with token "
                  + claim.token()
                  + " that the lease service never granted it");
        }
        lastClaimToken = claim.token();
      }
      tree.apply(entry);
    }
    for (RunState run : tree.runs()) {
      RunRecord row = stores.metadata().findRun(run.runId()).orElse(null);
      if (row == null || row.status() != run.status()) {
        violations.add(
            "run "
                + run.runId()
                + " is "
                + run.status()
                + " in its journal but "
                + (row == null ? "has no row" : row.status() + " in its row"));
      }
      if (tree.root().status().isTerminal() && !run.status().isTerminal()) {
        violations.add(
            "run " + run.runId() + " is " + run.status() + " under finished root " + root);
        if (Boolean.getBoolean("baton.sim.verbose")) {
          stores
              .journal()
              .readHistory(root, 1, 1_000_000)
              .forEach(e -> System.err.println("  " + e));
        }
      }
    }
    return violations;
  }

  private static List<String> checkLimits(Stores stores, UUID root, RunLimits limits) {
    List<String> violations = new ArrayList<>();
    TreeState tree = Replay.replay(stores.journal(), root).orElse(null);
    if (tree == null || tree.root() == null) {
      return violations;
    }
    if (tree.runs().size() > limits.maxRunsPerTree()) {
      violations.add(
          "tree "
              + root
              + " holds "
              + tree.runs().size()
              + " runs, beyond maxRunsPerTree "
              + limits.maxRunsPerTree());
    }
    for (RunState run : tree.runs()) {
      int depth = 0;
      for (RunState at = run; at.parentRunId() != null; at = tree.run(at.parentRunId())) {
        depth++;
      }
      if (depth > limits.maxSubflowDepth()) {
        violations.add(
            "run "
                + run.runId()
                + " is at depth "
                + depth
                + ", beyond "
                + limits.maxSubflowDepth());
      }
    }
    RunState top = tree.root();
    if (SimWorkload.RUNAWAY.contains(top.flowName())
        && top.status() != RunStatus.CANCELLED
        && (top.status() != RunStatus.FAILED
            || !LIMIT_CODES.contains(top.error() == null ? "" : top.error().code()))) {
      violations.add(
          "runaway tree "
              + root
              + " ended "
              + top.status()
              + " with "
              + top.error()
              + " instead of failing at a limit");
    }
    return violations;
  }

  private static final Set<String> LIMIT_CODES =
      Set.of(ErrorCodes.SUBFLOW_DEPTH_EXCEEDED, ErrorCodes.TREE_RUNS_EXCEEDED);
}

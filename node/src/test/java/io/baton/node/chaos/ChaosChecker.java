package io.baton.node.chaos;

import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import io.baton.journal.StepCompleted;
import io.baton.journal.StepFailed;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Judges a finished chaos run from its evidence alone (a pure function, so a test can plant a fault
 * in real evidence and watch it reported):
 *
 * <ul>
 *   <li>every accepted submission is a run that ended in the status its kind expects;
 *   <li>no step completion journaled twice (same run, same step);
 *   <li>every side effect the ledger saw belongs to a journaled attempt: its key names a run of the
 *       workload and a step, and that run's journal holds an outcome (completed or failed) of that
 *       step with the attempt number the request carried. A request from a zombie, or from an
 *       attempt the journal lost, has none;
 *   <li>every fenced-out write a node logged was counted in its metrics;
 *   <li>nothing the harness found (a submission no node took, a node that did not heal).
 * </ul>
 */
final class ChaosChecker {
  private ChaosChecker() {}

  static ChaosVerdict check(ChaosEvidence evidence) {
    return new ChaosVerdict(
        wrongStatus(evidence),
        completedTwice(evidence.journal()),
        unknownSideEffects(evidence),
        uncountedFences(evidence),
        unverifiedFences(evidence),
        evidence.harnessFindings());
  }

  private static List<String> wrongStatus(ChaosEvidence evidence) {
    List<String> wrong = new ArrayList<>();
    for (Workload.Submission submission : evidence.submissions()) {
      RunStatus status = evidence.statuses().get(submission.runId());
      if (status != submission.kind().expected) {
        wrong.add(
            submission.runId()
                + " ("
                + submission.kind()
                + ") is "
                + (status == null ? "missing" : status)
                + ", expected "
                + submission.kind().expected);
      }
    }
    return wrong;
  }

  private static List<String> completedTwice(List<JournalEntry> journal) {
    Map<String, Integer> completions = new HashMap<>();
    for (JournalEntry entry : journal) {
      if (entry.event() instanceof StepCompleted completed) {
        completions.merge(entry.runId() + "/" + completed.step(), 1, Integer::sum);
      }
    }
    List<String> twice = new ArrayList<>();
    completions.forEach(
        (step, count) -> {
          if (count > 1) {
            twice.add(step + " completed " + count + " times");
          }
        });
    return twice;
  }

  private static List<String> unknownSideEffects(ChaosEvidence evidence) {
    Set<UUID> runs = new HashSet<>();
    evidence.submissions().forEach(s -> runs.add(s.runId()));
    Set<String> attempts = new HashSet<>();
    for (JournalEntry entry : evidence.journal()) {
      if (entry.event() instanceof StepCompleted completed) {
        attempts.add(entry.runId() + "/" + completed.step() + "#" + completed.attempt());
      } else if (entry.event() instanceof StepFailed failed) {
        attempts.add(entry.runId() + "/" + failed.step() + "#" + failed.attempt());
      }
    }
    Set<String> unknown = new TreeSet<>();
    for (Ledger.SideEffect effect : evidence.sideEffects()) {
      String why = unknownBecause(effect, runs, attempts);
      if (why != null) {
        unknown.add(effect.key() + " attempt " + effect.attempt() + ": " + why);
      }
    }
    return List.copyOf(unknown);
  }

  private static String unknownBecause(
      Ledger.SideEffect effect, Set<UUID> runs, Set<String> attempts) {
    int slash = effect.key().indexOf('/');
    if (slash < 0) {
      return "not a run/step key";
    }
    UUID runId;
    try {
      runId = UUID.fromString(effect.key().substring(0, slash));
    } catch (IllegalArgumentException notARun) {
      return "not a run/step key";
    }
    if (!runs.contains(runId)) {
      return "no submitted run has this id";
    }
    return attempts.contains(effect.key() + "#" + effect.attempt())
        ? null
        : "the journal holds no outcome of this attempt";
  }

  private static List<String> uncountedFences(ChaosEvidence evidence) {
    return evidence.fences().stream()
        .filter(f -> f.counted() >= 0 && f.logged() > f.counted())
        .map(
            f ->
                f.incarnation()
                    + " logged "
                    + f.logged()
                    + " fenced-out writes but counted "
                    + f.counted())
        .toList();
  }

  private static List<String> unverifiedFences(ChaosEvidence evidence) {
    return evidence.fences().stream()
        .filter(f -> f.counted() < 0 && f.logged() > 0)
        .map(f -> f.incarnation() + " logged " + f.logged() + " fenced-out writes, never scraped")
        .toList();
  }
}

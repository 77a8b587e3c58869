package io.baton.node.chaos;

import io.baton.journal.ClaimReason;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunClaimed;
import io.baton.journal.StepCompleted;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Failover figures per fault kind, from the journal's own timestamps:
 *
 * <ul>
 *   <li><b>adoption</b>: for a fault that struck a node, each of its runs that another node claimed
 *       as an orphan or a hand-off (a {@code RunClaimed} naming the victim as previous owner; a
 *       parked run woken elsewhere later is not a failover) between the strike and the next fault,
 *       measured from the strike;
 *   <li><b>stall</b>: the longest time without any step completion in the cluster, from the strike
 *       to five seconds after the heal: how long the fault stopped the workload.
 * </ul>
 */
final class FailoverLatencies {
  private static final Duration AFTER_HEAL = Duration.ofSeconds(5);

  /** The figures of one kind of fault. */
  record Figures(int faults, List<Duration> adoptions, List<Duration> stalls) {}

  private FailoverLatencies() {}

  static Map<FaultKind, Figures> of(List<InjectedFault> faults, List<JournalEntry> journal) {
    List<Instant> completions =
        journal.stream()
            .filter(e -> e.event() instanceof StepCompleted)
            .map(JournalEntry::timestamp)
            .sorted()
            .toList();
    Map<FaultKind, Figures> figures = new EnumMap<>(FaultKind.class);
    for (int i = 0; i < faults.size(); i++) {
      InjectedFault fault = faults.get(i);
      Instant until = i + 1 < faults.size() ? faults.get(i + 1).injectedAt() : Instant.MAX;
      Figures kind =
          figures.computeIfAbsent(
              fault.planned().kind(), k -> new Figures(0, new ArrayList<>(), new ArrayList<>()));
      kind.adoptions().addAll(adoptions(fault, until, journal));
      kind.stalls().add(stall(fault, completions));
      figures.put(
          fault.planned().kind(), new Figures(kind.faults() + 1, kind.adoptions(), kind.stalls()));
    }
    return figures;
  }

  private static List<Duration> adoptions(
      InjectedFault fault, Instant until, List<JournalEntry> journal) {
    List<Duration> adoptions = new ArrayList<>();
    if (fault.victim() == null) {
      return adoptions;
    }
    for (JournalEntry entry : journal) {
      if (entry.event() instanceof RunClaimed claim
          && (claim.reason() == ClaimReason.ORPHAN || claim.reason() == ClaimReason.HANDOFF)
          && fault.victim().equals(claim.previousNode())
          && !fault.victim().equals(claim.node())
          && !entry.timestamp().isBefore(fault.injectedAt())
          && entry.timestamp().isBefore(until)) {
        adoptions.add(Duration.between(fault.injectedAt(), entry.timestamp()));
      }
    }
    return adoptions;
  }

  private static Duration stall(InjectedFault fault, List<Instant> completions) {
    Instant end = fault.healedAt().plus(AFTER_HEAL);
    Instant previous = fault.injectedAt();
    Duration longest = Duration.ZERO;
    for (Instant at : completions) {
      if (at.isAfter(previous) && !at.isAfter(end)) {
        longest = max(longest, Duration.between(previous, at));
        previous = at;
      }
    }
    return max(longest, Duration.between(previous, end));
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  /** The q-quantile (nearest rank) of durations; null for none. */
  static Duration quantile(List<Duration> durations, double q) {
    if (durations.isEmpty()) {
      return null;
    }
    List<Duration> sorted = durations.stream().sorted().toList();
    int rank = (int) Math.ceil(q * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }
}

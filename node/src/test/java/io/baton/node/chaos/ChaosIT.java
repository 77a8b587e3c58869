package io.baton.node.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.journal.JournalEntry;
import io.baton.journal.StepCompleted;
import io.baton.time.Durations;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The two-minute chaos run of the suite: real {@code baton node} processes, three etcd members, a
 * private PostgreSQL, every kind of fault at least once, then the checker. The seed is random
 * unless {@code -Dbaton.chaos.seed} names one; the report (with the seed) is printed either way.
 * Failover latencies are printed, not asserted: the machine is shared. Then the checker is shown
 * honest on this very run's evidence: a completion journaled a second time and a side effect of no
 * journaled attempt, planted into it, are each reported.
 */
class ChaosIT {
  @Test
  void a_two_minute_chaos_run_loses_nothing_and_repeats_no_completion() throws Exception {
    long seed = Long.getLong("baton.chaos.seed", new Random().nextLong(1, 1_000_000));
    ChaosOptions options =
        ChaosOptions.of(
            seed,
            Durations.parse(System.getProperty("baton.chaos.duration", "2m")),
            Integer.getInteger("baton.chaos.nodes", 3),
            Double.parseDouble(System.getProperty("baton.chaos.rate", "4")));
    ChaosRun.Outcome outcome = ChaosRun.run(options);
    System.out.print(outcome.report().format());

    assertThat(outcome.report().faults())
        .extracting(fault -> fault.planned().kind())
        .contains(FaultKind.values());
    assertThat(outcome.evidence().submissions()).hasSizeGreaterThan(100);
    assertThat(outcome.report().verdict().violations()).as("seed %d", seed).isEmpty();

    plantingIsReported(outcome.evidence());
  }

  private static void plantingIsReported(ChaosEvidence evidence) {
    JournalEntry completion =
        evidence.journal().stream()
            .filter(e -> e.event() instanceof StepCompleted)
            .findFirst()
            .orElseThrow();
    List<JournalEntry> twice = new ArrayList<>(evidence.journal());
    twice.add(
        new JournalEntry(
            completion.runId(),
            completion.rootRunId(),
            Long.MAX_VALUE,
            completion.timestamp(),
            completion.event()));
    String step = ((StepCompleted) completion.event()).step();
    assertThat(ChaosChecker.check(evidence.with(twice, evidence.sideEffects())).completedTwice())
        .containsExactly(completion.runId() + "/" + step + " completed 2 times");

    List<Ledger.SideEffect> unknown = new ArrayList<>(evidence.sideEffects());
    unknown.add(new Ledger.SideEffect(UUID.randomUUID() + "/call", 1, Instant.now()));
    unknown.add(new Ledger.SideEffect(completion.runId() + "/" + step, 99, Instant.now()));
    assertThat(ChaosChecker.check(evidence.with(evidence.journal(), unknown)).unknownSideEffects())
        .hasSize(2);
  }
}

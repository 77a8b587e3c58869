package io.baton.node.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.baton.journal.ClaimReason;
import io.baton.journal.JournalEntry;
import io.baton.journal.JournalEvent;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunStatus;
import io.baton.journal.StepCompleted;
import io.baton.journal.StepFailed;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The chaos checker is honest: on a finished ledger and journal that are clean it reports nothing,
 * and each fault planted into them — a step completion journaled twice, a side effect whose key
 * names no run, one whose attempt the journal never saw, a run that ended wrong, a fenced-out write
 * logged but not counted — is reported under its rule.
 */
class ChaosCheckerTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private final UUID run = UUID.randomUUID();
  private final UUID rejected = UUID.randomUUID();

  @Test
  void a_clean_run_has_no_violations() {
    assertThat(ChaosChecker.check(evidence(journal(), ledger())).violations()).isEmpty();
  }

  @Test
  void a_completion_journaled_twice_is_reported() {
    List<JournalEntry> journal = journal();
    journal.add(entry(run, 9, completed("after", 1)));

    ChaosVerdict verdict = ChaosChecker.check(evidence(journal, ledger()));

    assertThat(verdict.completedTwice()).containsExactly(run + "/after completed 2 times");
    assertThat(verdict.clean()).isFalse();
  }

  @Test
  void a_side_effect_of_no_journaled_attempt_is_reported() {
    List<Ledger.SideEffect> ledger = ledger();
    UUID stranger = UUID.randomUUID();
    ledger.add(new Ledger.SideEffect(stranger + "/call", 1, T0));
    ledger.add(new Ledger.SideEffect(run + "/call", 3, T0));
    ledger.add(new Ledger.SideEffect("null", -1, T0));

    ChaosVerdict verdict = ChaosChecker.check(evidence(journal(), ledger));

    assertThat(verdict.unknownSideEffects())
        .containsExactlyInAnyOrder(
            stranger + "/call attempt 1: no submitted run has this id",
            run + "/call attempt 3: the journal holds no outcome of this attempt",
            "null attempt -1: not a run/step key");
  }

  @Test
  void a_run_that_ended_otherwise_than_expected_is_reported() {
    ChaosEvidence evidence = evidence(journal(), ledger());
    ChaosEvidence wrong =
        new ChaosEvidence(
            evidence.submissions(),
            Map.of(run, RunStatus.FAILED),
            evidence.journal(),
            evidence.sideEffects(),
            evidence.fences(),
            List.of());

    assertThat(ChaosChecker.check(wrong).wrongStatus())
        .containsExactlyInAnyOrder(
            run + " (HTTP) is FAILED, expected SUCCEEDED",
            rejected + " (REJECTED) is missing, expected FAILED");
  }

  @Test
  void a_fenced_out_write_logged_but_not_counted_is_reported() {
    ChaosEvidence evidence = evidence(journal(), ledger());
    ChaosEvidence uncounted =
        new ChaosEvidence(
            evidence.submissions(),
            evidence.statuses(),
            evidence.journal(),
            evidence.sideEffects(),
            List.of(
                new ChaosEvidence.FenceCount("node-0#1", 2, 3),
                new ChaosEvidence.FenceCount("node-1#1", -1, 1),
                new ChaosEvidence.FenceCount("node-2#1", 4, 4)),
            List.of("node-2#1 exited 1 on SIGTERM"));

    ChaosVerdict verdict = ChaosChecker.check(uncounted);

    assertThat(verdict.uncountedFences())
        .containsExactly("node-0#1 logged 3 fenced-out writes but counted 2");
    assertThat(verdict.unverifiedFences())
        .containsExactly("node-1#1 logged 1 fenced-out writes, never scraped");
    assertThat(verdict.violations()).hasSize(3);
  }

  /** A run whose call failed once (503), was adopted, and completed; a rejected approval. */
  private List<JournalEntry> journal() {
    List<JournalEntry> journal = new ArrayList<>();
    journal.add(entry(run, 1, failed("call", 1)));
    journal.add(entry(run, 2, new RunClaimed("node-1", 7, "node-0", ClaimReason.ORPHAN)));
    journal.add(entry(run, 3, completed("call", 2)));
    journal.add(entry(run, 4, completed("after", 1)));
    journal.add(entry(rejected, 1, failed("ask", 1)));
    return journal;
  }

  private List<Ledger.SideEffect> ledger() {
    List<Ledger.SideEffect> ledger = new ArrayList<>();
    ledger.add(new Ledger.SideEffect(run + "/call", 1, T0));
    ledger.add(new Ledger.SideEffect(run + "/call", 2, T0));
    ledger.add(new Ledger.SideEffect(run + "/call", 2, T0)); // re-run after the adoption
    return ledger;
  }

  private ChaosEvidence evidence(List<JournalEntry> journal, List<Ledger.SideEffect> ledger) {
    return new ChaosEvidence(
        List.of(
            new Workload.Submission("chaos-1", run, Workload.Kind.HTTP, T0),
            new Workload.Submission("chaos-2", rejected, Workload.Kind.REJECTED, T0)),
        Map.of(run, RunStatus.SUCCEEDED, rejected, RunStatus.FAILED),
        journal,
        ledger,
        List.of(new ChaosEvidence.FenceCount("node-0#1", 1, 1)),
        List.of());
  }

  private static JournalEntry entry(UUID run, long seq, JournalEvent event) {
    return new JournalEntry(run, run, seq, T0.plusSeconds(seq), event);
  }

  private static StepCompleted completed(String step, int attempt) {
    return new StepCompleted(step, attempt, JsonNodeFactory.instance.objectNode(), T0, null);
  }

  private static StepFailed failed(String step, int attempt) {
    return new StepFailed(step, attempt, "http_5xx", "503", true, null, T0);
  }
}

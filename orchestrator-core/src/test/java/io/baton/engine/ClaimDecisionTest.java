package io.baton.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.TestFlows;
import io.baton.flow.Flow;
import io.baton.flow.RecoveryPolicy;
import io.baton.journal.ClaimReason;
import io.baton.journal.JournalEntry;
import io.baton.journal.JournalEvent;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.journal.RunStatusChanged;
import io.baton.journal.StepCompleted;
import io.baton.journal.StepStarted;
import io.baton.journal.replay.TreeState;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What a claim journals for a RUNNING tree, decided from the journal alone. */
class ClaimDecisionTest {
  private static final Instant T0 = Instant.parse("2026-05-01T10:00:00Z");
  private final UUID root = UUID.randomUUID();
  private final Flow careful =
      TestFlows.named("careful")
          .recovery(RecoveryPolicy.FAIL)
          .step("one", "echo", "{}")
          .step("two", "echo", "{}")
          .build();
  private final TreeState tree = new TreeState(root);

  private void journal(JournalEvent... events) {
    for (JournalEvent event : events) {
      tree.apply(new JournalEntry(root, root, tree.lastSeq() + 1, T0, event));
    }
  }

  /** A tree node-a runs under token 7, its first step done. */
  private void runningOnNodeA() {
    journal(
        new RunCreated("careful", careful.hash(), null, null, null, null, null),
        new RunClaimed("node-a", 7, null, ClaimReason.SUBMIT),
        RunStatusChanged.to(RunStatus.PENDING, RunStatus.RUNNING, "started"),
        new StepStarted("one", 1),
        new StepCompleted("one", 1, null, T0));
  }

  private ClaimDecision decide(ClaimReason reason, String lostBy, Instant now) {
    return ClaimDecision.decide("node-b", 9, reason, lostBy, null, tree, careful, false, now);
  }

  @Test
  void a_tree_handed_over_between_steps_is_adopted_whatever_its_policy() {
    runningOnNodeA();
    ClaimDecision decision = decide(ClaimReason.HANDOFF, "node-a", T0);
    assertThat(decision.adopt()).isTrue();
    assertThat(decision.events()).hasSize(1);
  }

  @Test
  void a_tree_with_a_started_step_and_no_outcome_is_settled_by_its_policy_naming_the_step() {
    runningOnNodeA();
    journal(new StepStarted("two", 1));
    ClaimDecision decision = decide(ClaimReason.ORPHAN, "node-a", T0);
    assertThat(decision.adopt()).isFalse();
    assertThat(decision.outcome()).isEqualTo(ClaimOutcome.SETTLED);
    assertThat(decision.events().get(1).event())
        .isEqualTo(
            new RunStatusChanged(
                RunStatus.RUNNING,
                RunStatus.FAILED,
                "node node-a stopped while step two was running",
                true,
                null));
  }

  @Test
  void a_wake_or_pending_claim_that_finds_the_tree_running_leaves_it_to_its_owner() {
    runningOnNodeA();
    assertThat(decide(ClaimReason.WAKE, null, T0).events()).isEmpty();
    assertThat(decide(ClaimReason.PENDING, null, T0).events()).isEmpty();
  }

  @Test
  void the_end_of_a_lease_that_does_not_fence_the_tree_orphans_nothing() {
    runningOnNodeA();
    journal(new StepStarted("two", 1));
    assertThat(decide(ClaimReason.ORPHAN, "node-c", T0).events())
        .as("a stray run key of node-c expired; node-a's lease fences the tree")
        .isEmpty();
    assertThat(decide(ClaimReason.ORPHAN, "node-a", T0).events()).isNotEmpty();
  }

  @Test
  void an_interrupted_tree_older_than_its_max_resume_age_is_cancelled() {
    Flow perishable =
        TestFlows.named("perishable")
            .maxResumeAge(Duration.ofMinutes(5))
            .step("one", "echo", "{}")
            .build();
    journal(
        new RunCreated("perishable", perishable.hash(), null, null, null, null, null),
        new RunClaimed("node-a", 7, null, ClaimReason.SUBMIT),
        RunStatusChanged.to(RunStatus.PENDING, RunStatus.RUNNING, "started"),
        new StepStarted("one", 1));
    ClaimDecision decision =
        ClaimDecision.decide(
            "node-b",
            9,
            ClaimReason.ORPHAN,
            "node-a",
            null,
            tree,
            perishable,
            false,
            T0.plus(Duration.ofMinutes(6)));
    assertThat(((RunStatusChanged) decision.events().get(1).event()).to())
        .isEqualTo(RunStatus.CANCELLED);
  }
}

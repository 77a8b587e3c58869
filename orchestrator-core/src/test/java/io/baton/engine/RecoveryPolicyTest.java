package io.baton.engine;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.AmbiguousJournal;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.flow.Backoff;
import io.baton.flow.Flow;
import io.baton.flow.RecoveryPolicy;
import io.baton.journal.ClaimReason;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import io.baton.journal.RunStatusChanged;
import io.baton.journal.replay.ClaimRecord;
import io.baton.lease.ConnectionState;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.RunRecord;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import io.baton.testkit.InjectDefects;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What an adopting node does with a run whose owner stopped while it ran, per flow, and with one
 * handed over between steps. {@code -Dbaton.defects=POLICY_ON_EVERY_ADOPTION} or {@code
 * NO_START_MARKERS} shows the tests failing without the rule they protect.
 */
@ExtendWith(InjectDefects.class)
class RecoveryPolicyTest {
  private final TestCluster cluster =
      new TestCluster()
          .recovery(RecoveryConfig.defaults().withCheckInterval(Duration.ofSeconds(1)));

  @AfterEach
  void close() {
    cluster.close();
  }

  /** Starts a run on node-a that holds in step "hold", then kills node-a; node-b is up. */
  private UUID interruptedRun(Flow flow) {
    cluster.start("node-a");
    cluster.start("node-b");
    cluster.apply(flow);
    Orchestrator a = cluster.node("node-a").orchestrator();
    UUID runId = cluster.await(a.submitAsync(flow.name(), json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> cluster.capabilities.waiting("hold"));
    cluster.node("node-a").halt();
    return runId;
  }

  private RunRecord settled(UUID runId) {
    Orchestrator b = cluster.node("node-b").orchestrator();
    cluster.runUntil(() -> b.find(runId).status().isTerminal(), Duration.ofMinutes(5));
    return b.find(runId);
  }

  @Test
  void resume_adopts_the_run_and_reruns_the_interrupted_step_with_the_same_key() {
    UUID runId = interruptedRun(TestFlows.named("resumes").step("hold", "gate", "{}").build());
    cluster.runUntil(() -> cluster.capabilities.callsOf("hold") == 2, Duration.ofMinutes(1));
    cluster.capabilities.open("hold", json("{\"done\": true}"));
    RunRecord run = settled(runId);
    assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(cluster.capabilities.calls)
        .extracting(c -> c.idempotencyKey())
        .containsOnly(runId + "/hold");
    assertThat(cluster.node("node-b").orchestrator().get(runId).ownership())
        .extracting(ClaimRecord::node, ClaimRecord::reason, ClaimRecord::previousNode)
        .containsExactly(
            Tuple.tuple("node-a", ClaimReason.SUBMIT, null),
            Tuple.tuple("node-b", ClaimReason.ORPHAN, "node-a"));
  }

  @Test
  void fail_marks_the_run_failed_and_recoverable_for_a_person_to_resume() {
    UUID runId =
        interruptedRun(
            TestFlows.named("careful")
                .recovery(RecoveryPolicy.FAIL)
                .step("hold", "gate", "{}")
                .build());
    RunRecord run = settled(runId);
    assertThat(run.status()).isEqualTo(RunStatus.FAILED);
    assertThat(run.recoverable()).isTrue();
    assertThat(run.statusReason()).isEqualTo("node node-a stopped while step hold was running");
    assertThat(cluster.capabilities.callsOf("hold")).as("not re-run by the adopter").isEqualTo(1);

    Orchestrator b = cluster.node("node-b").orchestrator();
    cluster.await(b.resumeAsync(runId, "ops"));
    cluster.runUntil(() -> cluster.capabilities.callsOf("hold") == 2);
    cluster.capabilities.open("hold", json("1"));
    cluster.runUntil(() -> b.find(runId).status() == RunStatus.SUCCEEDED);
    assertThat(cluster.stores.journal().readFrom(runId, 1, 1_000))
        .as("the journal says who resumed the run")
        .extracting(JournalEntry::event)
        .contains(RunStatusChanged.to(RunStatus.FAILED, RunStatus.RUNNING, "resumed by ops"));
  }

  @Test
  void a_run_older_than_max_resume_age_is_cancelled_with_a_reason() {
    UUID runId =
        interruptedRun(
            TestFlows.named("perishable")
                .maxResumeAge(Duration.ofSeconds(5))
                .step("hold", "gate", "{}")
                .build());
    cluster.scheduler.advance(Duration.ofSeconds(6));
    RunRecord run = settled(runId);
    assertThat(run.status()).isEqualTo(RunStatus.CANCELLED);
    assertThat(run.statusReason()).contains("older than its maxResumeAge").contains("node-a");
    assertThat(cluster.capabilities.callsOf("hold")).isEqualTo(1);
  }

  /** A fail-policy flow whose first step fails once and retries after a second: quiet between. */
  private static Flow carefulRetry() {
    return TestFlows.named("careful-retry")
        .recovery(RecoveryPolicy.FAIL)
        .step("first", "flaky", "{\"succeedOn\": 2}")
        .retry(3, Duration.ofSeconds(1), Backoff.FIXED, null, false, List.of())
        .step("second", "echo", "{}")
        .build();
  }

  private static Flow carefulHold() {
    return TestFlows.named("careful")
        .recovery(RecoveryPolicy.FAIL)
        .step("hold", "gate", "{}")
        .build();
  }

  @Test
  void a_tree_drained_between_steps_continues_on_the_adopter_whatever_the_policy() {
    cluster.engineConfig(c -> c.withDrainTimeout(Duration.ofSeconds(2)));
    cluster.start("node-a");
    cluster.start("node-b");
    cluster.apply(carefulRetry());
    Orchestrator a = cluster.node("node-a").orchestrator();
    UUID runId =
        cluster.await(a.submitAsync("careful-retry", json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> cluster.capabilities.callsOf("first") == 1);
    cluster.settle();
    assertThat(a.find(runId).status()).isEqualTo(RunStatus.RUNNING);

    cluster.await(cluster.node("node-a").drain());
    RunRecord run = settled(runId);
    assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(cluster.capabilities.callsOf("first")).isEqualTo(2);
    assertThat(cluster.node("node-b").orchestrator().get(runId).ownership())
        .extracting(ClaimRecord::node, ClaimRecord::reason)
        .containsExactly(
            Tuple.tuple("node-a", ClaimReason.SUBMIT), Tuple.tuple("node-b", ClaimReason.HANDOFF));
  }

  @Test
  void
      a_drain_that_hits_its_deadline_leaves_exactly_the_trees_with_a_step_in_flight_to_the_policy() {
    cluster.engineConfig(c -> c.withDrainTimeout(Duration.ofSeconds(1)));
    cluster.start("node-a");
    cluster.start("node-b");
    cluster.apply(carefulRetry());
    cluster.apply(carefulHold());
    Orchestrator a = cluster.node("node-a").orchestrator();
    UUID quiet =
        cluster.await(a.submitAsync("careful-retry", json("{}"), null, null)).run().runId();
    UUID held = cluster.await(a.submitAsync("careful", json("{}"), null, null)).run().runId();
    cluster.runUntil(
        () -> cluster.capabilities.callsOf("first") == 1 && cluster.capabilities.waiting("hold"));
    cluster.settle();

    cluster.await(cluster.node("node-a").drain());
    assertThat(settled(quiet).status()).isEqualTo(RunStatus.SUCCEEDED);
    RunRecord interrupted = settled(held);
    assertThat(interrupted.status()).isEqualTo(RunStatus.FAILED);
    assertThat(interrupted.recoverable()).isTrue();
    assertThat(interrupted.statusReason())
        .isEqualTo("node node-a stopped while step hold was running");
    assertThat(cluster.capabilities.callsOf("hold")).isEqualTo(1);
  }

  @Test
  void a_run_whose_submit_was_ambiguous_continues_when_claimed_before_any_step_started() {
    Stores base = InMemoryStores.create();
    AmbiguousJournal journal = new AmbiguousJournal(base.journal());
    try (TestCluster ambiguous =
        new TestCluster(new Stores(journal, base.metadata(), base.blobs(), null))
            .recovery(RecoveryConfig.defaults().withCheckInterval(Duration.ofSeconds(1)))) {
      ambiguous.start("node-a");
      ambiguous.start("node-b");
      ambiguous.apply(
          TestFlows.named("careful-once")
              .recovery(RecoveryPolicy.FAIL)
              .step("only", "echo", "{}")
              .build());
      journal.failNextCreation();
      Orchestrator a = ambiguous.node("node-a").orchestrator();
      var submitted = a.submitAsync("careful-once", json("{}"), "the-key", null);
      ambiguous.runUntil(submitted::isDone);
      assertThat(submitted).isCompletedExceptionally();
      UUID runId = base.metadata().findRunByIdempotencyKey("the-key").orElseThrow().runId();
      assertThat(a.find(runId).status()).as("the write landed").isEqualTo(RunStatus.RUNNING);

      ambiguous.runUntil(() -> a.find(runId).status().isTerminal(), Duration.ofMinutes(1));
      assertThat(a.find(runId).status()).isEqualTo(RunStatus.SUCCEEDED);
      assertThat(ambiguous.capabilities.callsOf("only")).isEqualTo(1);
    }
  }

  @Test
  void a_run_handed_over_between_steps_is_not_cancelled_by_its_max_resume_age() {
    cluster.engineConfig(c -> c.withDrainTimeout(Duration.ofSeconds(2)));
    cluster.start("node-a");
    cluster.start("node-b");
    Flow flow =
        TestFlows.named("perishable-retry")
            .maxResumeAge(Duration.ofMillis(200))
            .step("first", "flaky", "{\"succeedOn\": 2}")
            .retry(3, Duration.ofSeconds(1), Backoff.FIXED, null, false, List.of())
            .build();
    cluster.apply(flow);
    Orchestrator a = cluster.node("node-a").orchestrator();
    UUID runId =
        cluster.await(a.submitAsync("perishable-retry", json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> cluster.capabilities.callsOf("first") == 1);
    cluster.scheduler.advance(Duration.ofMillis(300));
    assertThat(a.find(runId).status()).as("quiet in its back-off").isEqualTo(RunStatus.RUNNING);
    cluster.await(cluster.node("node-a").drain());
    assertThat(settled(runId).status()).isEqualTo(RunStatus.SUCCEEDED);
  }

  @Test
  void terminal_runs_are_never_touched_by_recovery() {
    cluster.start("node-a");
    cluster.start("node-b");
    Flow flow = TestFlows.named("quick").step("a", "echo", "{}").build();
    cluster.apply(flow);
    Orchestrator a = cluster.node("node-a").orchestrator();
    UUID runId = cluster.await(a.submitAsync("quick", json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> a.find(runId).status() == RunStatus.SUCCEEDED);
    long entries = a.journal(runId).size();
    cluster.node("node-a").halt();
    cluster.scheduler.advance(Duration.ofMinutes(1));
    assertThat(cluster.node("node-b").orchestrator().journal(runId)).hasSize((int) entries);
  }

  @Test
  void a_suspended_node_starts_no_step_until_it_is_connected_again() {
    cluster.start("node-a");
    Flow flow =
        TestFlows.named("two").step("first", "gate", "{}").step("second", "echo", "{}").build();
    cluster.apply(flow);
    Orchestrator a = cluster.node("node-a").orchestrator();
    UUID runId = cluster.await(a.submitAsync("two", json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> cluster.capabilities.waiting("first"));
    cluster.leaseService.setReachable("node-a", false);
    cluster.runUntil(() -> cluster.node("node-a").leases().state() == ConnectionState.SUSPENDED);

    cluster.capabilities.open("first", json("1"));
    cluster.settle();
    assertThat(cluster.capabilities.callsOf("second")).as("no new step while suspended").isZero();

    cluster.leaseService.setReachable("node-a", true);
    cluster.runUntil(() -> a.find(runId).status() == RunStatus.SUCCEEDED, Duration.ofSeconds(10));
    assertThat(cluster.capabilities.callsOf("second")).isEqualTo(1);
  }
}

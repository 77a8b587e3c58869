package io.baton.engine;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.cluster.OrchestratorNode;
import io.baton.engine.testing.PoisonJournal;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.flow.Backoff;
import io.baton.journal.ClaimReason;
import io.baton.journal.RunStatus;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import io.baton.testkit.InjectDefects;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Roots this node cannot load (here: an entry it cannot decode) are set aside with a reason and
 * tried again later; they never stall the other roots of their claim batch nor hold the claimer's
 * window, at startup or after a failover. {@code -Dbaton.defects=NO_POISON_ISOLATION} shows the
 * tests failing without the rule.
 */
@ExtendWith(InjectDefects.class)
class PoisonRunTest {
  private final Stores base = InMemoryStores.create();
  private final PoisonJournal journal = new PoisonJournal(base.journal());
  private final TestCluster cluster =
      new TestCluster(new Stores(journal, base.metadata(), base.blobs(), null))
          .recovery(
              RecoveryConfig.defaults()
                  .withCheckInterval(Duration.ofSeconds(1))
                  .withMaxClaimsPerCheck(3));

  @AfterEach
  void close() {
    cluster.close();
  }

  /** Submits runs on node-a that sit in a one-second back-off; the first two are poisoned. */
  private List<UUID> runsOnNodeA(int count) {
    cluster.apply(
        TestFlows.named("work")
            .step("first", "flaky", "{\"succeedOn\": 2}")
            .retry(3, Duration.ofSeconds(1), Backoff.FIXED, null, false, List.of())
            .build());
    Orchestrator a = cluster.node("node-a").orchestrator();
    List<UUID> runs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      runs.add(cluster.await(a.submitAsync("work", json("{}"), null, null)).run().runId());
    }
    cluster.settle();
    journal.poison(runs.get(0));
    journal.poison(runs.get(1));
    return runs;
  }

  private RunStatus status(UUID runId) {
    return base.metadata().findRun(runId).orElseThrow().status();
  }

  @Test
  void poison_roots_are_set_aside_and_every_other_orphan_is_adopted() {
    cluster.engineConfig(c -> c.withMaxConcurrentRuns(c.nodeId().equals("node-b") ? 3 : 10));
    cluster.start("node-a");
    cluster.start("node-b");
    List<UUID> runs = runsOnNodeA(6);
    cluster.node("node-a").halt();

    List<UUID> healthy = runs.subList(2, 6);
    cluster.runUntil(
        () -> healthy.stream().allMatch(run -> status(run) == RunStatus.SUCCEEDED),
        Duration.ofMinutes(1));
    OrchestratorNode b = cluster.node("node-b");
    assertThat(b.setAside().list())
        .extracting(SetAsideRuns.Entry::rootRunId)
        .containsExactlyInAnyOrder(runs.get(0), runs.get(1));
    assertThat(b.setAside().list().get(0).reason())
        .contains("cannot be replayed")
        .contains("StepTeleported");
    assertThat(b.engine().metrics().registry().getGauges().get(EngineMetrics.SET_ASIDE).getValue())
        .isEqualTo(2);
    assertThat(status(runs.get(0))).isEqualTo(RunStatus.RUNNING);

    // a claim listed before the root was set aside (a departure, a pass) waits for its retry too
    assertThat(
            cluster.await(b.claims().claimLost(Map.of(runs.get(0), "node-a"), ClaimReason.ORPHAN)))
        .containsEntry(runs.get(0), ClaimOutcome.SET_ASIDE);
    assertThat(b.setAside().list())
        .filteredOn(entry -> entry.rootRunId().equals(runs.get(0)))
        .singleElement()
        .satisfies(entry -> assertThat(entry.attempts()).isEqualTo(1));

    journal.repair();
    cluster.runUntil(
        () -> runs.stream().allMatch(run -> status(run) == RunStatus.SUCCEEDED),
        Duration.ofMinutes(3));
    assertThat(b.setAside().list()).isEmpty();
  }

  @Test
  void startup_recovery_sets_a_poison_root_aside_and_resumes_the_others() {
    cluster.start("node-a");
    List<UUID> runs = runsOnNodeA(4);
    cluster.node("node-a").halt();
    cluster.scheduler.advance(TestCluster.TTL.plusSeconds(1));

    OrchestratorNode restarted = cluster.start("node-a");
    cluster.runUntil(
        () -> runs.subList(2, 4).stream().allMatch(run -> status(run) == RunStatus.SUCCEEDED),
        Duration.ofSeconds(30));
    assertThat(restarted.setAside().list())
        .extracting(SetAsideRuns.Entry::rootRunId)
        .containsExactlyInAnyOrder(runs.get(0), runs.get(1));
  }
}

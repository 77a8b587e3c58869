package io.baton.cluster;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.CuttableStores;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.journal.ClaimReason;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunStatus;
import io.baton.journal.StepCompleted;
import io.baton.lease.ForwardingLeaseManager;
import io.baton.lease.LeaseException;
import io.baton.lease.LeaseManager;
import io.baton.recovery.RecoveryConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rebalancing on simulated time: a node that joins a loaded cluster receives a share of its active
 * runs, each moved at a step boundary (the step in flight finishes and is journaled where it began,
 * the next one runs on the receiver), every step completed once.
 */
class RebalanceTest {
  private static final int RUNS = 20;

  private final CuttableStores cutB = new CuttableStores();
  private volatile boolean offersFailOnA;
  private final TestCluster cluster =
      new TestCluster()
          .stores((node, shared) -> node.equals("node-b") ? cutB.wrap(shared) : shared)
          .leases((node, leases) -> node.equals("node-a") ? new FailingOffers(leases) : leases)
          .recovery(RecoveryConfig.defaults().withCheckInterval(Duration.ofSeconds(1)))
          .rebalance(RebalanceConfig.defaults().withInterval(Duration.ofHours(1)));

  @AfterEach
  void close() {
    cluster.close();
  }

  @Test
  void a_joining_node_takes_a_share_of_the_runs_at_their_next_step_boundary() {
    OrchestratorNode a = cluster.start("node-a");
    List<UUID> runs = slowRunsOn(a, List.of("s1", "s2", "s3"));
    OrchestratorNode b = cluster.start("node-b");

    var round = a.rebalanceNow();
    cluster.scheduler.advance(Duration.ofSeconds(2));
    // the chosen runs are mid-step: none may leave before its step is journaled
    assertThat(b.engine().activeCount()).isZero();
    cluster.runUntil(round::isDone, Duration.ofSeconds(20));
    assertThat(round.join()).containsExactly(new RebalancePlan.Move("node-a", "node-b", 5));
    cluster.runUntil(() -> b.engine().activeCount() == 5, Duration.ofSeconds(1));
    assertThat(a.engine().activeCount()).isEqualTo(RUNS - 5);

    cluster.runUntil(
        () -> runs.stream().allMatch(r -> status(r) == RunStatus.SUCCEEDED), Duration.ofMinutes(5));
    int rebalanced = 0;
    for (UUID run : runs) {
      for (String step : List.of("s1", "s2", "s3")) {
        assertThat(completions(run, step)).as("run %s step %s", run, step).isEqualTo(1);
      }
      boolean moved =
          journal(run).stream()
              .anyMatch(
                  e ->
                      e.event() instanceof RunClaimed claim
                          && claim.reason() == ClaimReason.REBALANCE
                          && claim.node().equals("node-b")
                          && "node-a".equals(claim.previousNode()));
      rebalanced += moved ? 1 : 0;
    }
    assertThat(rebalanced).isEqualTo(5);
    for (String step : List.of("s1", "s2", "s3")) {
      assertThat(cluster.capabilities.callsOf(step)).as("no step ran twice").isEqualTo(RUNS);
    }
  }

  @Test
  void a_run_let_go_that_no_node_claims_comes_back_to_its_giver() {
    OrchestratorNode a = cluster.start("node-a");
    cluster.apply(
        TestFlows.named("one").step("hold", "gate", "{}").step("after", "noop", "{}").build());
    UUID run =
        cluster.await(a.orchestrator().submitAsync("one", json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> cluster.capabilities.waiting("hold"));
    cluster.scheduler.advance(Duration.ofSeconds(1));

    var left = a.engine().letGo(1, Duration.ZERO, Duration.ofSeconds(5));
    cluster.capabilities.open("hold", json("{}"));
    cluster.runUntil(left::isDone, Duration.ofSeconds(10));
    assertThat(left.join()).containsExactly(run);
    a.leases().offer(left.join(), "node-gone");
    cluster.scheduler.advance(Duration.ofSeconds(5));
    assertThat(a.engine().owns(run)).as("left to its receiver for a grace period").isFalse();

    cluster.runUntil(() -> status(run) == RunStatus.SUCCEEDED, Duration.ofMinutes(2));
    assertThat(completions(run, "hold")).isEqualTo(1);
  }

  @Test
  void a_run_offered_to_a_node_whose_claim_fails_comes_back_to_its_giver() {
    OrchestratorNode a = cluster.start("node-a");
    OrchestratorNode b = cluster.start("node-b");
    cluster.apply(
        TestFlows.named("one").step("hold", "gate", "{}").step("after", "noop", "{}").build());
    UUID run =
        cluster.await(a.orchestrator().submitAsync("one", json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> cluster.capabilities.waiting("hold"));
    cluster.scheduler.advance(Duration.ofSeconds(1));

    // node-b holds its lease but cannot read its store: its claim of the offered run fails
    cutB.cut();
    var left = a.engine().letGo(1, Duration.ZERO, Duration.ofSeconds(5));
    cluster.capabilities.open("hold", json("{}"));
    cluster.runUntil(left::isDone, Duration.ofSeconds(10));
    assertThat(left.join()).containsExactly(run);
    a.leases().offer(left.join(), "node-b");
    cluster.scheduler.advance(Duration.ofSeconds(5));
    assertThat(b.engine().owns(run)).isFalse();
    assertThat(a.engine().owns(run)).as("left to its receiver for a grace period").isFalse();

    cluster.runUntil(() -> status(run) == RunStatus.SUCCEEDED, Duration.ofMinutes(2));
    assertThat(completions(run, "hold")).isEqualTo(1);
    assertThat(completions(run, "after")).isEqualTo(1);
    assertThat(cluster.stores.metadata().findRun(run).orElseThrow().orchestratorId())
        .isEqualTo("node-a");
    cutB.heal();
  }

  @Test
  void runs_whose_giver_cannot_offer_them_come_back_to_it_and_run_once() {
    OrchestratorNode a = cluster.start("node-a");
    List<UUID> runs = slowRunsOn(a, List.of("s1", "s2"));
    OrchestratorNode b = cluster.start("node-b");

    // node-a plans and lets runs go, but its lease service refuses every offer
    offersFailOnA = true;
    var round = a.rebalanceNow();
    cluster.runUntil(round::isDone, Duration.ofSeconds(20));
    assertThat(round).isCompletedExceptionally();
    assertThat(b.engine().activeCount()).as("nothing was offered").isZero();
    assertThat(a.engine().activeCount()).as("the planned runs left").isEqualTo(RUNS - 5);

    cluster.runUntil(
        () -> runs.stream().allMatch(r -> status(r) == RunStatus.SUCCEEDED), Duration.ofMinutes(5));
    for (UUID run : runs) {
      for (String step : List.of("s1", "s2")) {
        assertThat(completions(run, step)).as("run %s step %s", run, step).isEqualTo(1);
      }
      assertThat(cluster.stores.metadata().findRun(run).orElseThrow().orchestratorId())
          .as("run %s", run)
          .isEqualTo("node-a");
    }
    assertThat(cluster.capabilities.callsOf("s2")).as("no step ran twice").isEqualTo(RUNS);
  }

  /** node-a's lease manager, refusing offers while the test says so (etcd unreachable). */
  private final class FailingOffers extends ForwardingLeaseManager {
    FailingOffers(LeaseManager delegate) {
      super(delegate);
    }

    @Override
    public Set<UUID> offer(Collection<UUID> runIds, String toNode) {
      if (offersFailOnA) {
        throw new LeaseException("etcd unreachable (test)", null, "node-a", null);
      }
      return delegate.offer(runIds, toNode);
    }
  }

  /** {@code RUNS} runs of ten-second steps on the node, each in its first step. */
  private List<UUID> slowRunsOn(OrchestratorNode node, List<String> steps) {
    TestFlows flow = TestFlows.named("slow");
    steps.forEach(step -> flow.step(step, "det-slow", "{\"millis\": 10000}"));
    cluster.apply(flow.build());
    List<UUID> runs = new ArrayList<>();
    for (int i = 0; i < RUNS; i++) {
      runs.add(
          cluster
              .await(node.orchestrator().submitAsync("slow", json("{}"), null, null))
              .run()
              .runId());
    }
    cluster.runUntil(() -> cluster.capabilities.callsOf(steps.get(0)) == RUNS);
    return runs;
  }

  private RunStatus status(UUID runId) {
    return cluster.stores.metadata().findRun(runId).orElseThrow().status();
  }

  private List<JournalEntry> journal(UUID runId) {
    return cluster.stores.journal().readFrom(runId, 0, 10_000);
  }

  private long completions(UUID runId, String step) {
    return journal(runId).stream()
        .filter(e -> e.event() instanceof StepCompleted done && done.step().equals(step))
        .count();
  }
}

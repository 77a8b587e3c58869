package io.baton.cluster;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.internal.Defect;
import io.baton.journal.RunStatus;
import io.baton.recovery.RecoveryConfig;
import io.baton.testkit.InjectDefects;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A node that is draining still takes submissions (its API answers until the hand-off is over) and
 * stores them PENDING. The others claim them when the drained node departs, not at their next
 * periodic pass: on the rolling restart these runs were the slowest of the roll. The draining node
 * also hints the others when it stores the run ({@link PendingHintTest}), but a hint is lost when
 * the lease service cannot be reached at that moment: this test drops every hint, so only the
 * departure can bring the run. {@code -Dbaton.defects=PENDING_WAITS_FOR_PASS} shows the test
 * failing without the rule.
 */
@ExtendWith(InjectDefects.class)
class PendingDuringDrainTest {
  private final TestCluster cluster =
      new TestCluster()
          .engineConfig(c -> c.withDrainTimeout(Duration.ofSeconds(5)))
          // no periodic pass within the test: only the departure can bring the run
          .recovery(RecoveryConfig.defaults().withCheckInterval(Duration.ofHours(1)));

  @AfterEach
  void close() {
    cluster.close();
  }

  @Test
  void a_run_submitted_to_a_draining_node_is_claimed_when_the_node_departs() {
    Defect.PENDING_UNHINTED.inject(); // the hint is lost; InjectDefects repairs it after the test
    OrchestratorNode a = cluster.start("node-a");
    OrchestratorNode b = cluster.start("node-b");
    cluster.apply(TestFlows.named("held").step("hold", "gate", "{}").build());
    cluster.apply(TestFlows.named("quick").step("only", "noop", "{}").build());
    // a step in flight keeps node-a's drain going while a run is submitted to it
    cluster.await(a.orchestrator().submitAsync("held", json("{}"), null, null));
    cluster.runUntil(() -> cluster.capabilities.waiting("hold"));

    var drained = a.drain();
    cluster.settle();
    UUID late =
        cluster.await(a.orchestrator().submitAsync("quick", json("{}"), null, null)).run().runId();
    assertThat(status(late)).as("stored for another node").isEqualTo(RunStatus.PENDING);
    cluster.capabilities.open("hold", json("{}"));
    cluster.runUntil(drained::isDone, Duration.ofSeconds(10));

    cluster.runUntil(() -> status(late) == RunStatus.SUCCEEDED, Duration.ofSeconds(5));
    assertThat(cluster.stores.metadata().findRun(late).orElseThrow().orchestratorId())
        .isEqualTo("node-b");
    assertThat(b.engine().owns(late)).isFalse();
  }

  private RunStatus status(UUID runId) {
    return cluster.stores.metadata().findRun(runId).orElseThrow().status();
  }
}

package io.baton.engine;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.journal.RunStatus;
import io.baton.recovery.RecoveryConfig;
import io.baton.testkit.InjectDefects;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A node kept full by submissions still wakes its due parked runs: a share of its capacity is held
 * back from new work for recovery. {@code -Dbaton.defects=NO_RECOVERY_RESERVE} shows the test
 * failing without it.
 */
@ExtendWith(InjectDefects.class)
class RecoveryReserveTest {
  private final TestCluster cluster =
      new TestCluster()
          .engineConfig(c -> c.withMaxConcurrentRuns(4))
          .recovery(RecoveryConfig.defaults().withCheckInterval(Duration.ofSeconds(1)));

  @AfterEach
  void close() {
    cluster.close();
  }

  @Test
  void the_reserve_is_a_tenth_rounded_up_and_none_for_a_single_tree() {
    assertThat(EngineConfig.defaults("n").withMaxConcurrentRuns(1).recoveryReserve()).isZero();
    assertThat(EngineConfig.defaults("n").withMaxConcurrentRuns(4).recoveryReserve()).isEqualTo(1);
    assertThat(EngineConfig.defaults("n").recoveryReserve()).isEqualTo(1_000);
  }

  @Test
  void a_node_full_of_submissions_still_wakes_its_due_parked_run() {
    cluster.start("node-a");
    cluster.apply(
        TestFlows.named("nap")
            .step("sleep", "wait-timer", "{\"duration\": \"10s\"}")
            .step("after", "echo", "{}")
            .build());
    cluster.apply(TestFlows.named("held").step("hold", "gate", "{}").build());
    Orchestrator a = cluster.node("node-a").orchestrator();
    UUID nap = cluster.await(a.submitAsync("nap", json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> a.find(nap).status() == RunStatus.WAITING);

    List<UUID> held = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      held.add(cluster.await(a.submitAsync("held", json("{}"), null, null)).run().runId());
    }
    cluster.settle();
    assertThat(held.stream().filter(run -> a.find(run).status() == RunStatus.PENDING))
        .as("new work beyond the node's share waits")
        .hasSize(3);

    cluster.runUntil(() -> a.find(nap).status() == RunStatus.SUCCEEDED, Duration.ofMinutes(1));
  }
}

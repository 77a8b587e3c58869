package io.baton.cluster;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.journal.ClaimReason;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunStatus;
import io.baton.lease.ForwardingLeaseManager;
import io.baton.lease.LeaseManager;
import io.baton.lease.LeaseUnavailableException;
import io.baton.recovery.RecoveryConfig;
import io.baton.testkit.InjectDefects;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A node that stores a submission PENDING (it has no room, is draining or has no lease) tells the
 * others, and one with room claims the run at once, not at its next periodic pass: on the rolling
 * restart such runs were the slowest of the roll. {@code -Dbaton.defects=PENDING_UNHINTED} shows
 * the test failing without the hint.
 */
@ExtendWith(InjectDefects.class)
class PendingHintTest {
  private volatile boolean hintsFailOnA;
  private final TestCluster cluster =
      new TestCluster()
          .leases((node, leases) -> node.equals("node-a") ? new FailingHints(leases) : leases)
          // two trees at most: one for new work, one held back for recovery
          .engineConfig(c -> c.withMaxConcurrentRuns(2))
          // no periodic pass within the test: only the hint can bring the run
          .recovery(RecoveryConfig.defaults().withCheckInterval(Duration.ofHours(1)));

  @AfterEach
  void close() {
    cluster.close();
  }

  @Test
  void a_run_stored_pending_by_a_full_node_is_claimed_at_once_by_a_node_with_room() {
    OrchestratorNode a = cluster.start("node-a");
    cluster.start("node-b");
    cluster.apply(TestFlows.named("held").step("hold", "gate", "{}").build());
    cluster.apply(TestFlows.named("quick").step("only", "noop", "{}").build());
    cluster.await(a.orchestrator().submitAsync("held", json("{}"), null, null));
    cluster.runUntil(() -> cluster.capabilities.waiting("hold"));

    // node-a has no room for new work: it stores the run PENDING, and only the hint brings it
    UUID late =
        cluster.await(a.orchestrator().submitAsync("quick", json("{}"), null, null)).run().runId();

    cluster.runUntil(() -> status(late) == RunStatus.SUCCEEDED, Duration.ofSeconds(5));
    assertThat(cluster.stores.journal().readFrom(late, 0, 100))
        .filteredOn(e -> e.event() instanceof RunClaimed)
        .extracting(e -> (RunClaimed) e.event())
        .singleElement()
        .satisfies(
            claim -> {
              assertThat(claim.node()).isEqualTo("node-b");
              assertThat(claim.reason())
                  .as("stored pending, then claimed")
                  .isEqualTo(ClaimReason.PENDING);
            });
  }

  @Test
  void a_hint_the_lease_service_refuses_is_dropped_and_the_next_hint_carries_its_run() {
    OrchestratorNode a = cluster.start("node-a");
    cluster.start("node-b");
    cluster.apply(TestFlows.named("held").step("hold", "gate", "{}").build());
    cluster.apply(TestFlows.named("quick").step("only", "noop", "{}").build());
    cluster.await(a.orchestrator().submitAsync("held", json("{}"), null, null));
    cluster.runUntil(() -> cluster.capabilities.waiting("hold"));

    hintsFailOnA = true;
    UUID unhinted =
        cluster.await(a.orchestrator().submitAsync("quick", json("{}"), null, null)).run().runId();
    cluster.scheduler.advance(Duration.ofSeconds(30));
    assertThat(status(unhinted)).as("its hint was lost").isEqualTo(RunStatus.PENDING);

    // the lease service answers again: the next run's hint makes node-b claim pending runs, oldest
    // first, so the run whose own hint was lost goes too
    hintsFailOnA = false;
    cluster.await(a.orchestrator().submitAsync("quick", json("{}"), null, null));
    cluster.runUntil(() -> status(unhinted) == RunStatus.SUCCEEDED, Duration.ofSeconds(5));
    assertThat(cluster.stores.metadata().findRun(unhinted).orElseThrow().orchestratorId())
        .isEqualTo("node-b");
  }

  /** node-a's lease manager, refusing hints while the test says so (etcd unreachable). */
  private final class FailingHints extends ForwardingLeaseManager {
    FailingHints(LeaseManager delegate) {
      super(delegate);
    }

    @Override
    public void hintPending() {
      if (hintsFailOnA) {
        throw new LeaseUnavailableException("etcd unreachable (test)", "node-a", null);
      }
      delegate.hintPending();
    }
  }

  private RunStatus status(UUID runId) {
    return cluster.stores.metadata().findRun(runId).orElseThrow().status();
  }
}

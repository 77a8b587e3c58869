package io.baton.cluster;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.journal.RunStatus;
import io.baton.journal.StepCompleted;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.ForwardingMetadataStore;
import io.baton.store.RunRecord;
import io.baton.store.StoreUnavailableException;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import io.baton.testkit.InjectDefects;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A run let go to a node that leaves before claiming it comes back to its giver, however many runs
 * the giver holds. Found by the full-size rebalance benchmark: a node holding 5,000 runs let runs
 * go to a node that joined and drained every 10 s; runs offered to it in its last moments stayed
 * RUNNING on nobody, because the giver looked for them only in a scan of its own runs that reads a
 * window of the oldest (the claim budget, 100) and never reached them. Here the window is 2 and the
 * giver holds 3 older runs. {@code -Dbaton.defects=LET_GO_FOUND_BY_SCAN} shows the test failing.
 */
@ExtendWith(InjectDefects.class)
class LetGoAtScaleTest {
  private final Stores base = InMemoryStores.create();
  private final AtomicInteger failingReads = new AtomicInteger();
  private final TestCluster cluster =
      new TestCluster(
              new Stores(
                  base.journal(),
                  new ForwardingMetadataStore(base.metadata()) {
                    @Override
                    public Optional<RunRecord> findRun(UUID runId) {
                      if (failingReads.getAndDecrement() > 0) {
                        throw new StoreUnavailableException("simulated: the store is down", null);
                      }
                      return super.findRun(runId);
                    }
                  },
                  base.blobs(),
                  null))
          .recovery(
              RecoveryConfig.defaults()
                  .withCheckInterval(Duration.ofSeconds(1))
                  .withMaxClaimsPerCheck(2))
          .rebalance(RebalanceConfig.defaults().withInterval(Duration.ofHours(1)));

  @AfterEach
  void close() {
    cluster.close();
  }

  @Test
  void a_run_let_go_to_a_node_that_left_comes_back_to_a_giver_with_more_runs_than_its_window() {
    OrchestratorNode a = cluster.start("node-a");
    cluster.apply(TestFlows.named("older").step("wait", "gate", "{}").build());
    cluster.apply(
        TestFlows.named("moved").step("hold", "gate", "{}").step("after", "noop", "{}").build());
    for (int i = 0; i < 3; i++) {
      cluster.await(a.orchestrator().submitAsync("older", json("{}"), null, null));
    }
    UUID run =
        cluster.await(a.orchestrator().submitAsync("moved", json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> cluster.capabilities.waiting("hold"));
    cluster.scheduler.advance(Duration.ofSeconds(1));

    // all four are asked to leave; the older ones stay mid-step at their closed gates
    var left = a.engine().letGo(4, Duration.ZERO, Duration.ofSeconds(5));
    cluster.capabilities.open("hold", json("{}"));
    cluster.runUntil(left::isDone, Duration.ofSeconds(10));
    assertThat(left.join()).containsExactly(run);
    a.leases().offer(left.join(), "node-gone");
    // the giver's first looks at the run it let go fail (the store is down): it looks again later
    failingReads.set(3);

    cluster.runUntil(() -> status(run) == RunStatus.SUCCEEDED, Duration.ofMinutes(2));
    assertThat(
            base.journal().readFrom(run, 0, 100).stream()
                .filter(e -> e.event() instanceof StepCompleted c && c.step().equals("hold"))
                .count())
        .isEqualTo(1);
  }

  private RunStatus status(UUID runId) {
    return base.metadata().findRun(runId).orElseThrow().status();
  }
}

package io.baton.cluster;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.journal.RunStatus;
import io.baton.journal.StepCompleted;
import io.baton.lease.AcquireResult;
import io.baton.lease.ForwardingLeaseManager;
import io.baton.lease.LeaseException;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.ForwardingMetadataStore;
import io.baton.store.RunRecord;
import io.baton.store.StoreUnavailableException;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import io.baton.testkit.InjectDefects;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
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
  /** Just short of the grace a receiver gets before the giver takes a run back (30 s). */
  private static final Duration GRACE_LESS_A_LITTLE = Duration.ofSeconds(29);

  private final Stores base = InMemoryStores.create();
  private final AtomicInteger failingReads = new AtomicInteger();
  private final AtomicInteger pendingScans = new AtomicInteger();
  private final AtomicInteger refusedClaims = new AtomicInteger();
  private volatile boolean claimsFail;
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

                    @Override
                    public List<UUID> findPendingRoots(int limit) {
                      // one a safety-net pass
                      pendingScans.incrementAndGet();
                      return super.findPendingRoots(limit);
                    }
                  },
                  base.blobs(),
                  null))
          .recovery(
              RecoveryConfig.defaults()
                  .withCheckInterval(Duration.ofSeconds(1))
                  .withMaxClaimsPerCheck(2))
          .rebalance(RebalanceConfig.defaults().withInterval(Duration.ofHours(1)))
          .leases(
              (nodeId, leases) ->
                  new ForwardingLeaseManager(leases) {
                    @Override
                    public Map<UUID, AcquireResult> acquireAll(Collection<UUID> runIds) {
                      if (claimsFail) {
                        refusedClaims.incrementAndGet();
                        throw new LeaseException("simulated: etcd refuses", null, nodeId, null);
                      }
                      return super.acquireAll(runIds);
                    }
                  });

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

  /**
   * Found by the full-size rebalance benchmark's churn phase: five givers let about 6,000 runs go
   * to a node that drained before claiming them, and each giver took them back at one claim budget
   * (100) a check interval (10 s), so they were still on nobody two minutes later. A pass that
   * finds more such runs than its window is followed at once: here 12 runs, a window of 2, come
   * back within one check interval after the grace instead of six.
   */
  @Test
  void many_runs_let_go_to_a_node_that_left_come_back_at_once_not_one_window_an_interval() {
    OrchestratorNode a = cluster.start("node-a");
    List<UUID> runs = letGoToANodeThatLeft(a, 12);
    cluster.scheduler.advance(GRACE_LESS_A_LITTLE);
    int scansBefore = pendingScans.get();

    // the grace a receiver gets (30 s), then one check interval (1 s) and a little
    cluster.runUntil(() -> runs.stream().allMatch(a.engine()::owns), Duration.ofSeconds(3));
    assertThat(runs).allMatch(a.engine()::owns);
    // the follow-ups (five here: twelve runs, two a window) take only runs let go: the scheduled
    // passes of these three seconds scan for pending runs, they do not
    assertThat(pendingScans.get() - scansBefore).isLessThanOrEqualTo(4);
  }

  /**
   * Runs let go whose claims back keep failing (the lease service refuses them) are tried once a
   * scheduled pass, not followed up at once a hundred times a check interval; once claims work
   * again, follow-ups bring them all back at once.
   */
  @Test
  void runs_let_go_whose_claims_keep_failing_are_tried_once_a_check_interval() {
    OrchestratorNode a = cluster.start("node-a");
    List<UUID> runs = letGoToANodeThatLeft(a, 12);
    claimsFail = true;

    // past the grace, then ten check intervals: ten scheduled passes, a claim of two runs each
    cluster.scheduler.advance(GRACE_LESS_A_LITTLE.plusSeconds(12));
    assertThat(refusedClaims.get()).isBetween(5, 20);
    assertThat(runs).noneMatch(a.engine()::owns);

    claimsFail = false;
    cluster.runUntil(() -> runs.stream().allMatch(a.engine()::owns), Duration.ofSeconds(2));
    assertThat(runs).allMatch(a.engine()::owns);
  }

  /**
   * {@code count} runs of the node let go to a node that leaves before claiming them, each in its
   * first step (a gate closed again behind it).
   */
  private List<UUID> letGoToANodeThatLeft(OrchestratorNode a, int count) {
    List<UUID> runs = new ArrayList<>();
    // a gate holds the latest invocation of its step name: one flow (and step name) a run
    for (int i = 0; i < count; i++) {
      cluster.apply(
          TestFlows.named("moved-" + i)
              .step("hold-" + i, "gate", "{}")
              .step("after-" + i, "gate", "{}")
              .build());
      runs.add(
          cluster
              .await(a.orchestrator().submitAsync("moved-" + i, json("{}"), null, null))
              .run()
              .runId());
    }
    cluster.runUntil(
        () ->
            IntStream.range(0, runs.size())
                .allMatch(i -> cluster.capabilities.waiting("hold-" + i)));
    cluster.scheduler.advance(Duration.ofSeconds(1));

    var left = a.engine().letGo(count, Duration.ZERO, Duration.ofSeconds(5));
    for (int i = 0; i < runs.size(); i++) {
      cluster.capabilities.open("hold-" + i, json("{}"));
    }
    cluster.runUntil(left::isDone, Duration.ofSeconds(10));
    assertThat(left.join()).containsExactlyInAnyOrderElementsOf(runs);
    a.leases().offer(left.join(), "node-gone");
    return runs;
  }

  private RunStatus status(UUID runId) {
    return base.metadata().findRun(runId).orElseThrow().status();
  }
}

package io.baton.cluster;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.Orchestrator;
import io.baton.engine.testing.CuttableStores;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ClaimReason;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.ForwardingJournal;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunStatus;
import io.baton.journal.RunWoken;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.SignalType;
import io.baton.store.StoreUnavailableException;
import io.baton.store.Stores;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Liveness of an approved run that a node woke and then had to give away (issue 16's chaos soak: a
 * run parked on an approval, approved, woken by node-2 with claim reason WAKE, then node-2's store
 * was cut and it stood down; no node finished the run). On simulated time, node-a wakes the run and
 * its store is cut before or just after (committed, unacknowledged) the claim's append or the
 * approval's append; in the PAUSED cases node-a first loses its lease (a SIGSTOP past the TTL) and
 * takes a fresh one. Whatever the cut point, node-b must finish the run while node-a stands down,
 * applying the approval once. All these cases pass on main: they bound where the soak's mechanism
 * is not (see the report), and guard the paths they cover.
 */
class WokenRunStandDownTest {
  private static final Duration HANDOFF = Duration.ofSeconds(5);

  enum Cut {
    BEFORE_WAKE_CLAIM,
    AFTER_WAKE_CLAIM_COMMITS,
    BEFORE_APPROVAL,
    AFTER_APPROVAL_COMMITS,
    PAUSED_APPROVE_VIA_A,
    PAUSED_APPROVE_VIA_B,
    PAUSED_WAKE_CLAIM_COMMITS
  }

  /** node-a's journal: cuts node-a's stores before, or just after, a chosen append is written. */
  static final class CuttingJournal extends ForwardingJournal {
    private final CuttableStores cut;
    private volatile Predicate<AppendRequest> when = r -> false;
    private volatile boolean afterCommit;

    CuttingJournal(ExecutionJournal delegate, CuttableStores cut) {
      super(delegate);
      this.cut = cut;
    }

    void cutAt(Predicate<AppendRequest> when, boolean afterCommit) {
      this.afterCommit = afterCommit;
      this.when = when;
    }

    @Override
    public List<AppendResult> appendAll(List<AppendRequest> requests) {
      boolean hit = requests.stream().anyMatch(when);
      if (hit && !afterCommit) {
        when = r -> false;
        cut.cut();
        throw new StoreUnavailableException("cut before the append", null);
      }
      List<AppendResult> results = delegate.appendAll(requests);
      if (hit) {
        when = r -> false;
        cut.cut();
        throw new StoreUnavailableException("cut before the acknowledgement", null);
      }
      return results;
    }
  }

  private final CuttableStores cutA = new CuttableStores();
  private CuttingJournal journalA;
  private final TestCluster cluster =
      new TestCluster()
          .stores(
              (node, shared) -> {
                if (!node.equals("node-a")) {
                  return shared;
                }
                journalA = new CuttingJournal(shared.journal(), cutA);
                Stores wrapped = cutA.wrap(shared);
                return new Stores(journalA, wrapped.metadata(), wrapped.blobs(), null);
              })
          .recovery(
              RecoveryConfig.defaults()
                  .withCheckInterval(Duration.ofSeconds(1))
                  .withStoreOutageHandoff(HANDOFF));

  @AfterEach
  void close() {
    cluster.close();
  }

  private static boolean wakeClaim(AppendRequest request) {
    return request.entries().stream()
        .anyMatch(e -> e.event() instanceof RunClaimed c && c.reason() == ClaimReason.WAKE);
  }

  private static boolean approval(AppendRequest request) {
    return request.entries().stream().anyMatch(e -> e.event() instanceof RunWoken);
  }

  @ParameterizedTest
  @EnumSource(Cut.class)
  void an_approved_run_woken_by_a_node_that_then_stands_down_is_finished(Cut where) {
    cluster.start("node-a");
    cluster.apply(
        TestFlows.named("approve-then-ship")
            .step("ask", "wait-approval", "{}", List.of(), null, null)
            .step("ship", "echo", "{}", List.of("ask"), null, null)
            .build());
    OrchestratorNode a = cluster.node("node-a");
    Orchestrator orchestrator = a.orchestrator();
    UUID runId =
        cluster
            .await(orchestrator.submitAsync("approve-then-ship", json("{}"), null, null))
            .run()
            .runId();
    cluster.runUntil(() -> status(runId) == RunStatus.WAITING);
    cluster.start("node-b");
    cluster.scheduler.advance(Duration.ofSeconds(2));

    switch (where) {
      case BEFORE_WAKE_CLAIM -> journalA.cutAt(WokenRunStandDownTest::wakeClaim, false);
      case AFTER_WAKE_CLAIM_COMMITS -> journalA.cutAt(WokenRunStandDownTest::wakeClaim, true);
      case BEFORE_APPROVAL -> journalA.cutAt(WokenRunStandDownTest::approval, false);
      case AFTER_APPROVAL_COMMITS -> journalA.cutAt(WokenRunStandDownTest::approval, true);
      default -> {}
    }
    if (where.name().startsWith("PAUSED")) {
      cluster.leaseService.setReachable("node-a", false);
      cluster.scheduler.advance(TestCluster.TTL.plusSeconds(1));
      if (where == Cut.PAUSED_WAKE_CLAIM_COMMITS) {
        journalA.cutAt(WokenRunStandDownTest::wakeClaim, true);
      } else {
        journalA.cutAt(WokenRunStandDownTest::approval, true);
      }
      (where == Cut.PAUSED_APPROVE_VIA_B ? cluster.node("node-b").orchestrator() : orchestrator)
          .answerAsync(runId, SignalType.APPROVE, "ask", "tester", null);
      cluster.leaseService.setReachable("node-a", true);
      cluster.settle();
    } else {
      orchestrator.answerAsync(runId, SignalType.APPROVE, "ask", "tester", null);
    }
    cluster.scheduler.advance(Duration.ofSeconds(30));
    // where the hook did not fire (node-b applied the approval), node-a is cut here
    cutA.cut();
    cluster.runUntil(() -> a.phase() == OrchestratorNode.Phase.STANDBY, Duration.ofMinutes(1));
    // node-b finishes the run while node-a stands down (its lease was revoked: the run is orphaned)
    cluster.scheduler.advance(Duration.ofMinutes(1));
    assertThat(status(runId)).as("the approved run finishes").isEqualTo(RunStatus.SUCCEEDED);
    cutA.heal();
    cluster.runUntil(() -> a.phase() == OrchestratorNode.Phase.READY, Duration.ofSeconds(10));

    assertThat(count(runId, RunWoken.class)).as("the approval is applied once").isEqualTo(1);
    assertThat(cluster.stores.metadata().signalsFor(runId)).isEmpty();
  }

  private long count(UUID runId, Class<?> event) {
    return cluster.stores.journal().readFrom(runId, 0, 10_000).stream()
        .map(JournalEntry::event)
        .filter(event::isInstance)
        .count();
  }

  private RunStatus status(UUID runId) {
    return cluster.stores.metadata().findRun(runId).orElseThrow().status();
  }
}

package io.baton.cluster;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.ForwardingJournal;
import io.baton.journal.RunStatus;
import io.baton.journal.RunWaiting;
import io.baton.journal.WaitReason;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.SignalType;
import io.baton.store.StoreUnavailableException;
import io.baton.store.Stores;
import io.baton.testkit.InjectDefects;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 16 (an APPROVED run left WAITING forever after a WAKE claim): an approval reaches the owner
 * while the append that records the approval wait is committed but not yet acknowledged there, so
 * the owner's state lags the journal the approving client read. The owner used to find nothing
 * waiting, take the signal for stale and delete it with its next append (the park); the park made
 * the root due for the signal, the WAKE claim that followed found no signal any more and parked the
 * run again with no wake time: nobody would ever look at it again. {@code
 * -Dbaton.defects=STALE_SIGNALS_WHILE_LAGGING} shows the test failing without the fix.
 */
@ExtendWith(InjectDefects.class)
class ApprovalRacingUnacknowledgedWaitTest {
  /** node-a's journal: the append that starts the approval wait commits, then acks fail a while. */
  static final class LostAckJournal extends ForwardingJournal {
    private final Supplier<Instant> now;
    private volatile boolean armed = true;
    private volatile Instant failUntil = Instant.MIN;

    LostAckJournal(ExecutionJournal delegate, Supplier<Instant> now) {
      super(delegate);
      this.now = now;
    }

    @Override
    public List<AppendResult> appendAll(List<AppendRequest> requests) {
      if (now.get().isBefore(failUntil)) {
        throw new StoreUnavailableException("appends fail", null);
      }
      boolean hit =
          armed
              && requests.stream()
                  .flatMap(r -> r.entries().stream())
                  .anyMatch(
                      e -> e.event() instanceof RunWaiting w && w.reason() == WaitReason.APPROVAL);
      List<AppendResult> results = delegate.appendAll(requests);
      if (hit) {
        armed = false;
        failUntil = now.get().plusSeconds(3);
        throw new StoreUnavailableException("committed, but the acknowledgement was lost", null);
      }
      return results;
    }
  }

  private final TestCluster cluster =
      new TestCluster()
          .stores(
              (node, shared) ->
                  node.equals("node-a")
                      ? new Stores(
                          new LostAckJournal(shared.journal(), () -> this.cluster.scheduler.now()),
                          shared.metadata(),
                          shared.blobs(),
                          null)
                      : shared)
          .recovery(RecoveryConfig.defaults().withCheckInterval(Duration.ofSeconds(1)));

  @AfterEach
  void close() {
    cluster.close();
  }

  @Test
  void an_approval_that_arrives_before_the_owner_hears_its_wait_was_journaled_is_applied() {
    cluster.start("node-a");
    cluster.start("node-b");
    cluster.apply(
        TestFlows.named("approve-then-ship")
            .step("ask", "wait-approval", "{}", List.of(), null, null)
            .step("ship", "echo", "{}", List.of("ask"), null, null)
            .build());
    UUID runId =
        cluster
            .await(
                cluster
                    .node("node-a")
                    .orchestrator()
                    .submitAsync("approve-then-ship", json("{}"), null, null))
            .run()
            .runId();
    // the wait is in the journal; node-a has not heard so yet
    cluster.runUntil(
        () ->
            cluster.node("node-b").orchestrator().get(runId).steps().stream()
                .anyMatch(s -> s.name().equals("ask") && s.status().equals("WAITING")),
        Duration.ofSeconds(1));
    cluster.node("node-b").orchestrator().answerAsync(runId, SignalType.APPROVE, "ask", "b", null);

    cluster.scheduler.advance(Duration.ofMinutes(2));
    assertThat(status(runId)).as("the approved run finishes").isEqualTo(RunStatus.SUCCEEDED);
    assertThat(cluster.node("node-b").orchestrator().get(runId).steps().get(0).status())
        .isEqualTo("SUCCEEDED");
    assertThat(cluster.capabilities.callsOf("ship")).isEqualTo(1);
    assertThat(cluster.stores.metadata().signalsFor(runId)).isEmpty();
  }

  private RunStatus status(UUID runId) {
    return cluster.stores.metadata().findRun(runId).orElseThrow().status();
  }
}

package io.baton.engine;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.AppendHookJournal;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import io.baton.journal.RunStatusChanged;
import io.baton.journal.replay.ClaimRecord;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.Signal;
import io.baton.store.SignalType;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import io.baton.testkit.InjectDefects;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A signal that reaches a tree while its park is being journaled: the tree has work again before it
 * leaves memory. Its root must be journaled RUNNING again before any step executes, so the row
 * tells the truth and no other node's due pass claims it from under its owner. {@code
 * -Dbaton.defects=EXECUTE_WHILE_PARKED} shows the test failing without the rule.
 */
@ExtendWith(InjectDefects.class)
class ParkingRaceTest {
  private final Stores base = InMemoryStores.create();
  private final AppendHookJournal journal = new AppendHookJournal(base.journal());
  private final TestCluster cluster =
      new TestCluster(new Stores(journal, base.metadata(), base.blobs(), null))
          .recovery(RecoveryConfig.defaults().withCheckInterval(Duration.ofSeconds(1)));

  @AfterEach
  void close() {
    cluster.close();
  }

  @Test
  void a_signal_that_arrives_while_the_tree_parks_wakes_the_root_before_any_step_runs() {
    cluster.start("node-a");
    cluster.start("node-b");
    cluster.apply(
        TestFlows.named("approve")
            .step("ask", "wait-approval", "{}")
            .step("ship", "gate", "{}")
            .build());
    Orchestrator a = cluster.node("node-a").orchestrator();
    journal.beforeNext(
        AppendHookJournal.PARKS,
        park -> {
          Signal approval =
              base.metadata()
                  .addSignal(
                      park.rootRunId(),
                      SignalType.APPROVE,
                      null,
                      json("{\"by\": \"ann\"}"),
                      cluster.scheduler.now());
          cluster.node("node-a").engine().deliver(List.of(approval));
        });
    UUID runId = cluster.await(a.submitAsync("approve", json("{}"), null, null)).run().runId();

    cluster.runUntil(() -> cluster.capabilities.waiting("ship"), Duration.ofSeconds(30));
    assertThat(a.find(runId).status())
        .as("the row of a tree that executes a step")
        .isEqualTo(RunStatus.RUNNING);
    assertThat(statusChanges(runId)).containsSubsequence("RUNNING->WAITING", "WAITING->RUNNING");

    cluster.scheduler.advance(Duration.ofSeconds(5));
    cluster.await(cluster.node("node-b").claimPass());
    cluster.capabilities.open("ship", json("1"));
    cluster.runUntil(() -> a.find(runId).status() == RunStatus.SUCCEEDED, Duration.ofSeconds(30));
    assertThat(a.get(runId).ownership())
        .as("no other node claimed the run while its owner executed it")
        .extracting(ClaimRecord::node)
        .containsOnly("node-a");
    assertThat(base.metadata().signalsFor(runId)).isEmpty();
  }

  private List<String> statusChanges(UUID runId) {
    return base.journal().readFrom(runId, 1, 1000).stream()
        .map(JournalEntry::event)
        .filter(RunStatusChanged.class::isInstance)
        .map(RunStatusChanged.class::cast)
        .map(changed -> changed.from() + "->" + changed.to())
        .toList();
  }
}

package io.baton.engine;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.AppendHookJournal;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.journal.RunStatus;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.ForwardingMetadataStore;
import io.baton.store.MetadataStore;
import io.baton.store.RunWriter;
import io.baton.store.Signal;
import io.baton.store.SignalType;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import io.baton.testkit.InjectDefects;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Signals reach the trees they address and none is left behind: a node's inbox poll cannot be
 * crowded out by signals it will never apply, and a signal that races a tree's last append is
 * deleted. {@code -Dbaton.defects=SIGNALS_LEAK} shows the second failing without the fix.
 */
@ExtendWith(InjectDefects.class)
class SignalDeliveryTest {
  private final Stores base = InMemoryStores.create();
  private final AppendHookJournal journal = new AppendHookJournal(base.journal());
  private final TestCluster cluster =
      new TestCluster(new Stores(journal, base.metadata(), base.blobs(), null))
          .recovery(RecoveryConfig.defaults().withCheckInterval(Duration.ofHours(1)));

  @AfterEach
  void close() {
    cluster.close();
  }

  @Test
  void a_fresh_approval_is_delivered_within_the_poll_interval_past_a_thousand_stale_signals() {
    cluster.start("node-a");
    cluster.start("node-b");
    for (int i = 0; i < 1_100; i++) {
      RunWriter stale = new RunWriter(base.journal(), cluster.scheduler.now());
      stale.running("gone", "node-a", 3);
      base.metadata()
          .addSignal(stale.root(), SignalType.CANCEL, null, null, cluster.scheduler.now());
    }
    cluster.apply(
        TestFlows.named("busy-approval")
            .step("ask", "wait-approval", "{}", List.of(), null, null)
            .step("busy", "gate", "{}", List.of(), null, null)
            .step("ship", "echo", "{}", List.of("ask"), null, null)
            .build());
    Orchestrator a = cluster.node("node-a").orchestrator();
    UUID runId =
        cluster.await(a.submitAsync("busy-approval", json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> cluster.capabilities.waiting("busy"));
    cluster.scheduler.advance(Duration.ofSeconds(3));
    assertThat(cluster.node("node-a").engine().owns(runId)).as("busy, not parked").isTrue();

    cluster.node("node-b").orchestrator().answerAsync(runId, SignalType.APPROVE, "ask", "b", null);
    cluster.scheduler.advance(EngineConfig.DEFAULT_SIGNAL_POLL_INTERVAL.plusMillis(50));
    assertThat(a.get(runId).steps().get(0).status()).isEqualTo("SUCCEEDED");
    assertThat(cluster.capabilities.callsOf("ship")).isEqualTo(1);
  }

  @Test
  void a_signal_that_races_the_trees_last_append_is_deleted() {
    cluster.start("node-a");
    cluster.apply(TestFlows.named("short").step("work", "gate", "{}").build());
    Orchestrator a = cluster.node("node-a").orchestrator();
    UUID runId = cluster.await(a.submitAsync("short", json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> cluster.capabilities.waiting("work"));
    journal.beforeNext(
        AppendHookJournal.FINISHES,
        finishing -> {
          Signal cancel =
              base.metadata()
                  .addSignal(runId, SignalType.CANCEL, null, null, cluster.scheduler.now());
          cluster.node("node-a").engine().deliver(List.of(cancel));
        });
    cluster.capabilities.open("work", json("1"));
    cluster.runUntil(() -> a.find(runId).status() == RunStatus.SUCCEEDED);
    cluster.scheduler.advance(Duration.ofSeconds(5));
    assertThat(base.metadata().signalsFor(runId)).isEmpty();
  }

  @Test
  void an_approval_on_the_node_that_runs_the_tree_answers_on_the_engines_word_not_by_polling() {
    CountingInbox inbox = new CountingInbox(base.metadata());
    try (TestCluster own =
        new TestCluster(new Stores(base.journal(), inbox, base.blobs(), null))
            .recovery(RecoveryConfig.defaults().withCheckInterval(Duration.ofHours(1)))) {
      own.start("node-a");
      own.apply(
          TestFlows.named("owned-approval")
              .step("ask", "wait-approval", "{}", List.of(), null, null)
              .step("busy", "gate", "{}", List.of(), null, null)
              .build());
      Orchestrator a = own.node("node-a").orchestrator();
      UUID runId = own.await(a.submitAsync("owned-approval", json("{}"), null, null)).run().runId();
      own.runUntil(() -> own.capabilities.waiting("busy"));
      assertThat(own.node("node-a").engine().owns(runId)).as("busy, not parked").isTrue();
      int readsBefore = inbox.signalsForCalls;
      Instant asked = own.scheduler.now();

      var answered = a.answerAsync(runId, SignalType.APPROVE, "ask", "a", null);
      own.runUntil(answered::isDone, Duration.ofMillis(20));

      assertThat(own.await(answered).status()).isEqualTo(RunStatus.RUNNING);
      assertThat(a.get(runId).steps().get(0).status()).isEqualTo("SUCCEEDED");
      assertThat(Duration.between(asked, own.scheduler.now())).isLessThan(Duration.ofMillis(20));
      assertThat(inbox.signalsForCalls)
          .as("reads of the inbox while waiting")
          .isEqualTo(readsBefore);
    }
  }

  /** The real in-memory store, counting how often a tree's inbox is read. */
  private static final class CountingInbox extends ForwardingMetadataStore {
    int signalsForCalls;

    CountingInbox(MetadataStore delegate) {
      super(delegate);
    }

    @Override
    public List<Signal> signalsFor(UUID rootRunId) {
      signalsForCalls++;
      return super.signalsFor(rootRunId);
    }
  }
}

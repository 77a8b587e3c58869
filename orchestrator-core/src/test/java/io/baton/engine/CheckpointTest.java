package io.baton.engine;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.flow.Flow;
import io.baton.journal.Checkpoint;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.ForwardingJournal;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import io.baton.journal.replay.Replay;
import io.baton.journal.replay.TreeState;
import io.baton.store.StoreUnavailableException;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The owner checkpoints its trees: every N entries, every M bytes of journal, and when a tree
 * parks; a checkpoint holds exactly what replaying the journal up to its seq gives.
 */
class CheckpointTest {
  private final TestCluster cluster = new TestCluster();

  @AfterEach
  void close() {
    cluster.close();
  }

  private ExecutionJournal journal() {
    return cluster.stores.journal();
  }

  private UUID runToEnd(Flow flow) {
    cluster.start("node-a");
    cluster.apply(flow);
    Orchestrator orchestrator = cluster.node("node-a").orchestrator();
    UUID runId =
        cluster.await(orchestrator.submitAsync(flow.name(), json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> orchestrator.find(runId).status().isTerminal(), Duration.ofHours(1));
    return runId;
  }

  private static Flow steps(String name, int count, String capability, String params) {
    TestFlows flow = TestFlows.named(name);
    for (int i = 1; i <= count; i++) {
      flow.step("s" + i, capability, params);
    }
    return flow.build();
  }

  /** The checkpoint equals the fold of the journal's first {@code seq} entries. */
  private void assertFaithful(UUID root, Checkpoint checkpoint) {
    List<JournalEntry> upTo =
        journal().readFrom(root, 1, Integer.MAX_VALUE).stream()
            .filter(entry -> entry.seq() <= checkpoint.seq())
            .toList();
    assertThat(upTo).hasSize((int) checkpoint.seq());
    assertThat(checkpoint.snapshot()).isEqualTo(Replay.fold(root, upTo).toSnapshot());
  }

  @Test
  void a_tree_is_checkpointed_once_enough_entries_were_journaled_since_the_last_checkpoint() {
    cluster.engineConfig(c -> c.withCheckpoints(5, Long.MAX_VALUE));
    UUID root = runToEnd(steps("many", 12, "noop", "{}"));

    Checkpoint checkpoint = journal().getCheckpoint(root).orElseThrow();
    long latest = journal().latestSequence(root);
    assertThat(checkpoint.seq()).isGreaterThanOrEqualTo(5).isGreaterThan(latest - 5 - 5);
    assertFaithful(root, checkpoint);
  }

  @Test
  void no_checkpoint_is_written_before_either_threshold_is_reached() {
    cluster.engineConfig(c -> c.withCheckpoints(1_000, 1L << 20));
    UUID root = runToEnd(steps("few", 12, "noop", "{}"));

    assertThat(journal().getCheckpoint(root)).isEmpty();
  }

  @Test
  void large_outputs_bring_the_checkpoint_forward_by_their_bytes() {
    cluster.engineConfig(c -> c.withCheckpoints(1_000, 4_096));
    String big = "x".repeat(3_000);
    UUID root = runToEnd(steps("big", 3, "echo", "{\"blob\": \"" + big + "\"}"));

    // a dozen entries: only their bytes can have triggered it
    assertThat(journal().latestSequence(root)).isLessThan(1_000);
    assertFaithful(root, journal().getCheckpoint(root).orElseThrow());
  }

  @Test
  void a_checkpoint_the_store_refuses_costs_the_run_nothing_and_is_written_at_the_next_trigger() {
    Stores base = InMemoryStores.create();
    AtomicInteger refused = new AtomicInteger();
    ExecutionJournal failing =
        new ForwardingJournal(base.journal()) {
          @Override
          public void checkpoint(UUID rootRunId, long token, Checkpoint checkpoint) {
            if (refused.incrementAndGet() <= 2) {
              throw new StoreUnavailableException("the database is down", null);
            }
            super.checkpoint(rootRunId, token, checkpoint);
          }
        };
    TestCluster down =
        new TestCluster(new Stores(failing, base.metadata(), base.blobs(), null))
            .engineConfig(c -> c.withCheckpoints(5, Long.MAX_VALUE));
    try {
      down.start("node-a");
      Flow flow = steps("refused", 20, "noop", "{}");
      down.apply(flow);
      Orchestrator orchestrator = down.node("node-a").orchestrator();
      UUID root =
          down.await(orchestrator.submitAsync(flow.name(), json("{}"), null, null)).run().runId();
      down.runUntil(() -> orchestrator.find(root).status().isTerminal(), Duration.ofHours(1));

      assertThat(orchestrator.find(root).status()).isEqualTo(RunStatus.SUCCEEDED);
      assertThat(refused.get())
          .as("the first two were refused, a later one written")
          .isGreaterThan(2);
      Checkpoint written = base.journal().getCheckpoint(root).orElseThrow();
      List<JournalEntry> upTo =
          base.journal().readFrom(root, 1, Integer.MAX_VALUE).stream()
              .filter(entry -> entry.seq() <= written.seq())
              .toList();
      assertThat(written.snapshot()).isEqualTo(Replay.fold(root, upTo).toSnapshot());
    } finally {
      down.close();
    }
  }

  @Test
  void a_parked_tree_is_checkpointed_at_its_park() {
    Flow flow =
        TestFlows.named("parks")
            .step("first", "noop", "{}")
            .step("nap", "wait-timer", "{\"duration\": \"1h\"}")
            .step("last", "noop", "{}")
            .build();
    cluster.start("node-a");
    cluster.apply(flow);
    Orchestrator orchestrator = cluster.node("node-a").orchestrator();
    UUID root =
        cluster.await(orchestrator.submitAsync(flow.name(), json("{}"), null, null)).run().runId();
    cluster.runUntil(
        () ->
            orchestrator.find(root).status() == RunStatus.WAITING
                && journal().getCheckpoint(root).isPresent(),
        Duration.ofMinutes(1));

    Checkpoint checkpoint = journal().getCheckpoint(root).orElseThrow();
    assertThat(checkpoint.seq()).isEqualTo(journal().latestSequence(root));
    assertFaithful(root, checkpoint);
    TreeState restored = TreeState.fromSnapshot(checkpoint.snapshot());
    assertThat(restored.root().status()).isEqualTo(RunStatus.WAITING);
  }

  @Test
  void a_claim_after_compaction_reads_only_the_checkpoint_and_what_follows_and_finishes_the_run() {
    Flow flow =
        TestFlows.named("wakes")
            .step("first", "echo", "{\"n\": 1}")
            .step("nap", "wait-timer", "{\"duration\": \"1h\"}")
            .step("last", "echo", "{\"n\": \"{{ steps.first.output.n }}\"}")
            .output("{{ steps.last.output }}")
            .build();
    cluster.start("node-a");
    cluster.apply(flow);
    Orchestrator orchestrator = cluster.node("node-a").orchestrator();
    UUID root =
        cluster.await(orchestrator.submitAsync(flow.name(), json("{}"), null, null)).run().runId();
    cluster.runUntil(
        () ->
            orchestrator.find(root).status() == RunStatus.WAITING
                && journal().getCheckpoint(root).isPresent(),
        Duration.ofMinutes(1));
    TreeState full = Replay.fold(root, journal().readFrom(root, 1, Integer.MAX_VALUE));
    long covered = journal().getCheckpoint(root).orElseThrow().seq();

    assertThat(journal().compact(root)).isEqualTo((int) covered);
    assertThat(journal().readFrom(root, 1, 10)).isEmpty();
    TreeState claimed = Replay.replayAll(journal(), List.of(root)).get(root);
    assertThat(claimed.toSnapshot()).isEqualTo(full.toSnapshot());
    assertThat(claimed.checkpointSeq()).isEqualTo(covered);

    cluster.runUntil(() -> orchestrator.find(root).status().isTerminal(), Duration.ofHours(2));
    assertThat(orchestrator.find(root).status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(orchestrator.get(root).run().output()).isEqualTo(json("{\"n\": 1}"));
  }
}

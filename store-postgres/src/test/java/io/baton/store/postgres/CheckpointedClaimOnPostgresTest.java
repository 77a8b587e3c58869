package io.baton.store.postgres;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.Orchestrator;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.flow.Flow;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import io.baton.journal.replay.Replay;
import io.baton.journal.replay.TreeState;
import io.baton.store.Stores;
import io.baton.store.postgres.testkit.PostgresFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The engine's checkpoints on real PostgreSQL: a run parks (and is checkpointed), its journal is
 * compacted, and the claim that wakes it reads only the checkpoint and the entries after it, sees
 * the state a full replay gave, and finishes the run as it would have.
 */
class CheckpointedClaimOnPostgresTest {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  private static List<JournalEntry> everything(ExecutionJournal journal, UUID root) {
    List<JournalEntry> entries = new ArrayList<>();
    List<JournalEntry> page;
    do {
      page = journal.readFrom(root, entries.size() + 1L, 1000);
      entries.addAll(page);
    } while (page.size() == 1000);
    return entries;
  }

  @Test
  void a_claim_after_compaction_sees_what_a_full_replay_saw_and_finishes_the_run() {
    Stores stores = postgres.stores();
    postgres.database().truncateAll();
    ExecutionJournal journal = stores.journal();
    Flow flow =
        TestFlows.named("checkpointed")
            .step("first", "echo", "{\"n\": 1}")
            .step("second", "echo", "{\"m\": \"{{ steps.first.output.n }}\"}")
            .step("nap", "wait-timer", "{\"duration\": \"1h\"}")
            .step("last", "echo", "{\"n\": \"{{ steps.second.output.m }}\"}")
            .output("{{ steps.last.output }}")
            .build();
    try (TestCluster cluster = new TestCluster(stores)) {
      cluster.engineConfig(c -> c.withCheckpoints(3, Long.MAX_VALUE));
      cluster.start("node-a");
      cluster.apply(flow);
      Orchestrator orchestrator = cluster.node("node-a").orchestrator();
      UUID root =
          cluster
              .await(orchestrator.submitAsync(flow.name(), json("{}"), null, null))
              .run()
              .runId();
      cluster.runUntil(
          () ->
              orchestrator.find(root).status() == RunStatus.WAITING
                  && journal.getCheckpoint(root).map(c -> c.seq()).orElse(0L)
                      == journal.latestSequence(root),
          Duration.ofMinutes(1));
      List<JournalEntry> before = everything(journal, root);
      TreeState full = Replay.fold(root, before);

      int compacted = journal.compact(root);

      assertThat(compacted).isEqualTo(before.size());
      assertThat(journal.readFrom(root, 1, 1000)).isEmpty();
      TreeState claimed = Replay.replayAll(journal, List.of(root)).get(root);
      assertThat(claimed.toSnapshot()).isEqualTo(full.toSnapshot());
      assertThat(claimed.checkpointSeq()).isEqualTo(before.size());

      cluster.runUntil(() -> orchestrator.find(root).status().isTerminal(), Duration.ofHours(2));
      assertThat(orchestrator.find(root).status()).isEqualTo(RunStatus.SUCCEEDED);
      assertThat(orchestrator.get(root).run().output()).isEqualTo(json("{\"n\": 1}"));
      // the wake-up's claim and what followed are all that is left in the hot journal
      assertThat(journal.readFrom(root, 1, 1000))
          .allSatisfy(entry -> assertThat(entry.seq()).isGreaterThan(before.size()));
    }
  }
}

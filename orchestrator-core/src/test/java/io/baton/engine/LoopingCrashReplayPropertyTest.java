package io.baton.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.FlowGenerator;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.flow.Flow;
import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.Checkpoint;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.ForwardingJournal;
import io.baton.journal.JournalEntry;
import io.baton.journal.replay.Replay;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Property: for generated LOOPING flows (steps that {@code repeat}, fail and retry, wait between
 * iterations) on an engine that checkpoints every few entries, a crash after any journal write
 * (every append and every checkpoint) — with or without the hot journal compacted up to the
 * checkpoint right after the crash — and a fresh node that claims the run reach the same final
 * state as the uninterrupted run; no step's completion is journaled twice; and the claim's view
 * after compaction (the checkpoint and what follows it) equals a full replay of the history.
 *
 * <p>Replay a seed with {@code -Dtest=LoopingCrashReplayPropertyTest -Dbaton.seed=N}.
 */
class LoopingCrashReplayPropertyTest {
  private static final int SEEDS = 25;
  private static final int CHECKPOINT_EVERY = 3;

  @TestFactory
  Stream<DynamicTest> a_looping_run_ends_as_the_uninterrupted_one_after_a_crash_at_any_write() {
    String only = System.getProperty("baton.seed");
    Stream<Long> seeds =
        only != null
            ? Stream.of(Long.parseLong(only))
            : Stream.iterate(1L, s -> s + 1).limit(SEEDS);
    return seeds.map(seed -> DynamicTest.dynamicTest("seed " + seed, () -> check(seed)));
  }

  /** One journal write: an append, or a checkpoint under a token. */
  private record Write(AppendRequest append, long token, Checkpoint checkpoint) {}

  /** Records every write the journal accepted, in order, and all entries ever appended. */
  private static final class WriteLog extends ForwardingJournal {
    final List<Write> writes = new CopyOnWriteArrayList<>();
    final List<JournalEntry> history = new CopyOnWriteArrayList<>();

    WriteLog(ExecutionJournal delegate) {
      super(delegate);
    }

    @Override
    public List<AppendResult> appendAll(List<AppendRequest> requests) {
      List<AppendResult> results = delegate.appendAll(requests);
      for (int i = 0; i < results.size(); i++) {
        if (results.get(i) instanceof AppendResult.Appended appended
            && !appended.alreadyPresent()) {
          writes.add(new Write(requests.get(i), 0, null));
          history.addAll(requests.get(i).entries());
        }
      }
      return results;
    }

    @Override
    public void checkpoint(UUID rootRunId, long token, Checkpoint checkpoint) {
      delegate.checkpoint(rootRunId, token, checkpoint);
      writes.add(new Write(null, token, checkpoint));
    }
  }

  private void check(long seed) {
    Flow flow = FlowGenerator.loopOfDeterministicSteps(new Random(seed), "looping");
    List<Write> writes = new ArrayList<>();
    CrashReplayPropertyTest.Outcome reference = run(flow, null, false, writes);
    assertThat(writes.stream().filter(w -> w.checkpoint() != null))
        .as("seed %d writes checkpoints", seed)
        .isNotEmpty();
    for (int crashAfter = 1; crashAfter < writes.size(); crashAfter++) {
      for (boolean compact : new boolean[] {false, true}) {
        CrashReplayPropertyTest.Outcome recovered =
            run(flow, writes.subList(0, crashAfter), compact, null);
        assertThat(recovered)
            .as(
                "seed %d, crash after write %d of %d (%s), %s (replay: -Dbaton.seed=%d)",
                seed,
                crashAfter,
                writes.size(),
                writes.get(crashAfter - 1).checkpoint() != null ? "a checkpoint" : "an append",
                compact ? "compacted" : "not compacted",
                seed)
            .isEqualTo(reference);
      }
    }
  }

  /**
   * Runs the flow to its end: fresh, or on a journal that holds only the {@code prefix} writes,
   * compacted up to its checkpoint when {@code compact}.
   */
  private CrashReplayPropertyTest.Outcome run(
      Flow flow, List<Write> prefix, boolean compact, List<Write> record) {
    Stores base = InMemoryStores.create();
    WriteLog journal = new WriteLog(base.journal());
    Stores stores = new Stores(journal, base.metadata(), base.blobs(), null);
    UUID root = prefix == null ? null : prefix.get(0).append().rootRunId();
    if (prefix != null) {
      for (Write write : prefix) {
        if (write.append() != null) {
          journal.append(write.append());
        } else {
          journal.checkpoint(root, write.token(), write.checkpoint());
        }
      }
      if (compact) {
        long covered = journal.getCheckpoint(root).map(Checkpoint::seq).orElse(0L);
        assertThat(journal.compact(root)).isEqualTo((int) covered);
        assertThat(Replay.replay(journal, root).orElseThrow().toSnapshot())
            .as("a claim after compaction sees what a full replay sees")
            .isEqualTo(Replay.fold(root, journal.history).toSnapshot());
      }
    }
    try (TestCluster cluster = new TestCluster(stores, prefix == null ? 0 : 1_000_000)) {
      cluster.engineConfig(c -> c.withCheckpoints(CHECKPOINT_EVERY, Long.MAX_VALUE));
      cluster.start("node-a");
      cluster.apply(flow);
      Orchestrator orchestrator = cluster.node("node-a").orchestrator();
      if (root == null) {
        root =
            cluster
                .await(
                    orchestrator.submitAsync(flow.name(), TestFlows.json("{\"x\": 5}"), null, null))
                .run()
                .runId();
      }
      UUID runId = root;
      cluster.runUntil(() -> orchestrator.find(runId).status().isTerminal(), Duration.ofHours(1));
      CrashReplayPropertyTest.assertNoCompletionTwice(journal.history);
      if (record != null) {
        record.addAll(journal.writes);
      }
      return CrashReplayPropertyTest.Outcome.of(orchestrator.get(runId));
    }
  }
}

package io.baton.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.engine.testing.FlowGenerator;
import io.baton.engine.testing.RecordingJournal;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.flow.Flow;
import io.baton.journal.AppendRequest;
import io.baton.journal.JournalEntry;
import io.baton.journal.StepCompleted;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Property: for generated flows (sequences and DAGs whose steps fail and retry) and a crash after
 * any append of the journal, a fresh node that replays the journal and continues reaches the same
 * final status and outputs as the uninterrupted run, and no step's completion is journaled twice.
 *
 * <p>Seeds are reproducible: a failure names its seed; replay one with {@code mvn -pl
 * orchestrator-core test -Dtest=CrashReplayPropertyTest -Dbaton.seed=N}.
 */
class CrashReplayPropertyTest {
  private static final int SEEDS = 60;

  @TestFactory
  Stream<DynamicTest> a_replayed_run_ends_as_the_uninterrupted_one_after_a_crash_at_any_append() {
    String only = System.getProperty("baton.seed");
    Stream<Long> seeds =
        only != null
            ? Stream.of(Long.parseLong(only))
            : Stream.iterate(1L, s -> s + 1).limit(SEEDS);
    return seeds.map(seed -> DynamicTest.dynamicTest("seed " + seed, () -> check(seed)));
  }

  /** How a run ended, as crash-replay properties compare it with the uninterrupted run's. */
  record Outcome(String status, JsonNode output, List<String> steps) {
    static Outcome of(RunView view) {
      return new Outcome(
          view.run().status() + (view.run().error() == null ? "" : ":" + view.run().error().code()),
          view.run().output(),
          view.steps().stream().map(s -> s.name() + "=" + s.status() + ":" + s.output()).toList());
    }
  }

  private void check(long seed) {
    Flow flow = FlowGenerator.dagOfDeterministicSteps(new Random(seed), "generated");
    List<AppendRequest> appends = new ArrayList<>();
    Outcome reference = run(flow, null, appends);
    for (int crashAfter = 1; crashAfter < appends.size(); crashAfter++) {
      Outcome recovered = run(flow, appends.subList(0, crashAfter), null);
      assertThat(recovered)
          .as(
              "seed %d, crash after append %d of %d (replay: -Dbaton.seed=%d)",
              seed, crashAfter, appends.size(), seed)
          .isEqualTo(reference);
    }
  }

  /** Runs the flow to its end: fresh, or on a journal that holds only {@code prefix}. */
  private Outcome run(Flow flow, List<AppendRequest> prefix, List<AppendRequest> record) {
    Stores base = InMemoryStores.create();
    RecordingJournal journal = new RecordingJournal(base.journal());
    Stores stores = new Stores(journal, base.metadata(), base.blobs(), null);
    UUID root = prefix == null ? null : prefix.get(0).rootRunId();
    if (prefix != null) {
      prefix.forEach(journal::append);
    }
    try (TestCluster cluster = new TestCluster(stores, prefix == null ? 0 : 1_000_000)) {
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
      assertNoCompletionTwice(orchestrator.journal(runId));
      if (record != null) {
        record.addAll(journal.accepted);
      }
      return Outcome.of(orchestrator.get(runId));
    }
  }

  static void assertNoCompletionTwice(List<JournalEntry> entries) {
    Set<String> completed = new HashSet<>();
    for (JournalEntry entry : entries) {
      if (entry.event() instanceof StepCompleted step) {
        assertThat(completed.add(entry.runId() + "/" + step.step()))
            .as("step %s completed twice", step.step())
            .isTrue();
      }
    }
  }
}

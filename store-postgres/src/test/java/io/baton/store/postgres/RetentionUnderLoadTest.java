package io.baton.store.postgres;

import static io.baton.store.RunWriter.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.journal.Checkpoint;
import io.baton.journal.StepCompleted;
import io.baton.journal.replay.Replay;
import io.baton.store.MetadataStore;
import io.baton.store.RunRetention.Deadline;
import io.baton.store.RunRetention.FinishedTree;
import io.baton.store.RunWriter;
import io.baton.store.Stores;
import io.baton.store.postgres.testkit.PostgresFixture;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Retention and archiving on real PostgreSQL while owners append, claim and checkpoint live trees
 * on other connections: nothing live is deleted or loses an entry, and no expired tree survives two
 * retention passes run by three deleters at once. Time is a parameter ({@code now}), not waited
 * for.
 */
class RetentionUnderLoadTest {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  private static final Instant T0 = Instant.parse("2026-04-01T08:00:00.123456Z");
  private static final Duration RETENTION = Duration.ofHours(1);
  private static final Instant NOW = T0.plus(Duration.ofDays(1));

  @Test
  void live_trees_keep_every_entry_and_no_expired_tree_survives_two_passes() throws Exception {
    Stores stores = postgres.stores();
    postgres.database().truncateAll();
    MetadataStore metadata = stores.metadata();
    List<UUID> expired = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      RunWriter run = new RunWriter(stores.journal(), T0).running("done", "node-a", 3);
      run.child(run.root(), "sub");
      expired.add(run.succeed(json("i", i)).root());
    }
    List<UUID> kept = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      kept.add(
          new RunWriter(stores.journal(), T0).running("f", "node-a", 3).fail("boom", true).root());
      kept.add(new RunWriter(stores.journal(), T0).running("f", "node-a", 3).park(NOW).root());
    }
    List<RunWriter> live = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      live.add(new RunWriter(stores.journal(), T0).running("live", "node-a", 3));
    }

    ExecutorService pool = Executors.newFixedThreadPool(8);
    AtomicBoolean owning = new AtomicBoolean(true);
    Map<UUID, Long> written = new ConcurrentHashMap<>();
    try {
      List<Future<?>> owners = new ArrayList<>();
      for (int w = 0; w < 3; w++) {
        List<RunWriter> mine = live.subList(w * 4, w * 4 + 4);
        owners.add(pool.submit(() -> own(stores, mine, owning, written)));
      }
      Future<?> archiver =
          pool.submit(
              () -> {
                while (owning.get()) {
                  stores.journal().archiveCovered(25);
                }
                return null;
              });
      for (int pass = 1; pass <= 2; pass++) {
        List<Future<Integer>> deleters = new ArrayList<>();
        for (int d = 0; d < 3; d++) {
          deleters.add(pool.submit(() -> retentionPass(metadata)));
        }
        for (Future<Integer> deleter : deleters) {
          deleter.get(120, TimeUnit.SECONDS);
        }
      }
      owning.set(false);
      for (Future<?> owner : owners) {
        owner.get(120, TimeUnit.SECONDS);
      }
      archiver.get(120, TimeUnit.SECONDS);
    } finally {
      owning.set(false);
      pool.shutdownNow();
      assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }

    for (UUID root : expired) {
      assertThat(metadata.findRun(root)).as("expired %s", root).isEmpty();
    }
    assertThat(rowsOf(expired)).as("rows left of expired trees").isZero();
    for (UUID root : kept) {
      assertThat(metadata.findRun(root)).as("kept %s", root).isPresent();
    }
    for (RunWriter run : live) {
      long latest = stores.journal().latestSequence(run.root());
      assertThat(latest).isEqualTo(written.get(run.root()));
      assertThat(stores.journal().readHistory(run.root(), 1, 100_000))
          .extracting(entry -> entry.seq())
          .as("history of live %s", run.root())
          .hasSize((int) latest)
          .doesNotHaveDuplicates();
    }
  }

  /**
   * Appends steps, claims under a larger token and checkpoints, round robin, until told to stop.
   */
  private static Void own(
      Stores stores, List<RunWriter> trees, AtomicBoolean owning, Map<UUID, Long> written) {
    long token = 3;
    int round = 0;
    while (owning.get() || round < 20) {
      round++;
      for (RunWriter tree : trees) {
        if (round % 7 == 0) {
          tree.claim("node-b", token + 1);
        } else {
          tree.append(tree.root(), new StepCompleted("s" + round, 1, json("r", round), T0));
        }
        if (round % 5 == 0) {
          long covered = stores.journal().latestSequence(tree.root()) - 1;
          stores
              .journal()
              .checkpoint(
                  tree.root(),
                  stores.journal().currentToken(tree.root()).orElseThrow(),
                  new Checkpoint(
                      covered,
                      Replay.fold(
                              tree.root(),
                              stores.journal().readHistory(tree.root(), 1, (int) covered))
                          .toSnapshot(),
                      T0));
        }
        written.put(tree.root(), stores.journal().latestSequence(tree.root()));
      }
      if (round % 7 == 0) {
        token++;
      }
    }
    return null;
  }

  /**
   * One retention pass as a node runs it: deadlines for what finished, then deletion, in batches.
   */
  private static int retentionPass(MetadataStore metadata) {
    int deleted = 0;
    while (true) {
      List<FinishedTree> finished = metadata.finishedWithoutDeadline(10);
      metadata.setDeadlines(
          finished.stream()
              .map(t -> new Deadline(t.rootRunId(), t.finishedAt(), t.finishedAt().plus(RETENTION)))
              .toList());
      int batch = metadata.deleteExpired(NOW, 7).size();
      deleted += batch;
      if (finished.isEmpty() && batch == 0) {
        return deleted;
      }
    }
  }

  private static long rowsOf(List<UUID> roots) throws Exception {
    long rows = 0;
    try (Connection connection = postgres.database().connect()) {
      for (String table :
          List.of("runs", "journal", "journal_archive", "journal_checkpoints", "run_signals")) {
        try (PreparedStatement count =
            connection.prepareStatement(
                "SELECT count(*) FROM " + table + " WHERE root_run_id = ANY(?)")) {
          count.setArray(1, connection.createArrayOf("uuid", roots.toArray()));
          try (ResultSet rs = count.executeQuery()) {
            rs.next();
            rows += rs.getLong(1);
          }
        }
      }
    }
    return rows;
  }
}

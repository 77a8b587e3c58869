package io.baton.store.postgres;

import static io.baton.journal.JournalFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.journal.Checkpoint;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.JournalFixtures;
import io.baton.journal.UnknownRootException;
import io.baton.journal.replay.Replay;
import io.baton.store.MetadataStore;
import io.baton.store.RunRetention.Deadline;
import io.baton.store.RunRetention.Discarded;
import io.baton.store.postgres.internal.Database;
import io.baton.store.postgres.internal.TreeRetention;
import io.baton.store.postgres.testkit.PostgresFixture;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Retention deletes a tree's journal, archive and completion keys in chunks of bounded size, one
 * transaction each, after one short transaction took the tree away from the API and its owner. A
 * pass that stops midway (its chunk budget spent, or its node dead) leaves a tree nobody sees, and
 * the next pass on any node finishes it.
 */
class ChunkedTreeDeletionTest {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  private static final int CHUNK = 7;
  private static final Instant LATER = JournalFixtures.T0.plusSeconds(86_400 * 365);

  private ExecutionJournal journal;
  private MetadataStore metadata;

  @BeforeEach
  void open() {
    journal = postgres.stores().journal();
    metadata = postgres.stores().metadata();
    postgres.database().truncateAll();
  }

  @Test
  void a_pass_that_stops_midway_leaves_a_tree_nobody_sees_and_the_next_pass_finishes_it()
      throws SQLException {
    JournalFixtures doomed = longFinishedTree();
    JournalFixtures live = JournalFixtures.newRoot();
    journal.append(live.createClaimed("node-b", 1));
    journal.append(live.steps(1, 5));
    long owned = rowsOf(doomed.root());
    long liveRows = rowsOf(live.root());
    assertThat(owned).as("journal, archive and keys").isGreaterThan(4L * CHUNK);
    expireEverythingFinished();

    try (Database node = Database.open(postgres.config().build())) {
      assertThat(new TreeRetention(node, CHUNK, 2).deleteExpired(LATER, 10))
          .containsExactly(doomed.root());
    }

    assertThat(rowsOf(doomed.root())).as("two chunks deleted").isEqualTo(owned - 2 * CHUNK);
    assertThat(deletedTrees()).containsExactly(doomed.root());
    assertThat(metadata.findRun(doomed.root())).isEmpty();
    assertThat(journal.getCheckpoint(doomed.root())).isEmpty();
    assertThatThrownBy(
            () -> journal.append(doomed.of(1, doomed.stepCompleted("late", json("n", 1)))))
        .isInstanceOf(UnknownRootException.class);

    int passes = 0;
    try (Database otherNode = Database.open(postgres.config().build())) {
      TreeRetention next = new TreeRetention(otherNode, CHUNK, 2);
      while (!deletedTrees().isEmpty()) {
        assertThat(next.deleteExpired(LATER, 10)).isEmpty();
        passes++;
        assertThat(passes).as("passes to finish").isLessThan(10);
      }
    }
    long chunks = (owned - 2 * CHUNK) / CHUNK + 1; // the last finds less than a chunk
    assertThat(passes).isEqualTo((int) (chunks + 1) / 2);
    assertThat(rowsOf(doomed.root())).isZero();
    assertThat(rowsOf(live.root())).isEqualTo(liveRows);
    assertThat(metadata.findRun(live.root())).isPresent();
  }

  @Test
  void a_discarded_tree_is_deleted_in_chunks_to_the_last_row() throws SQLException {
    JournalFixtures doomed = longFinishedTree();

    try (Database node = Database.open(postgres.config().build())) {
      assertThat(new TreeRetention(node, CHUNK, 100).discardTree(doomed.root()))
          .isEqualTo(Discarded.DELETED);
    }

    assertThat(rowsOf(doomed.root())).isZero();
    assertThat(deletedTrees()).isEmpty();
    assertThat(metadata.findRun(doomed.root())).isEmpty();
  }

  /** A finished root with 40 completions, half of them archived behind a checkpoint. */
  private JournalFixtures longFinishedTree() {
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.createClaimed("node-a", 1));
    journal.append(root.steps(1, 20));
    long covered = journal.latestSequence(root.root());
    journal.checkpoint(
        root.root(),
        1,
        new Checkpoint(
            covered,
            Replay.fold(root.root(), journal.readFrom(root.root(), 1, 100)).toSnapshot(),
            JournalFixtures.T0));
    assertThat(journal.compact(root.root())).isEqualTo(covered);
    journal.append(root.steps(1, 20));
    journal.append(root.of(1, root.completed()));
    return root;
  }

  private void expireEverythingFinished() {
    metadata.setDeadlines(
        metadata.finishedWithoutDeadline(100).stream()
            .map(tree -> new Deadline(tree.rootRunId(), tree.finishedAt(), tree.finishedAt()))
            .toList());
  }

  /** The rows a tree owns that are deleted in chunks. */
  private static long rowsOf(UUID root) throws SQLException {
    long rows = 0;
    try (Connection connection = postgres.database().connect()) {
      for (String table : List.of("journal", "journal_archive")) {
        try (PreparedStatement count =
            connection.prepareStatement(
                "SELECT count(*) FROM " + table + " WHERE root_run_id = ?")) {
          count.setObject(1, root);
          try (ResultSet rs = count.executeQuery()) {
            rs.next();
            rows += rs.getLong(1);
          }
        }
      }
    }
    return rows;
  }

  private static List<UUID> deletedTrees() throws SQLException {
    List<UUID> roots = new ArrayList<>();
    try (Connection connection = postgres.database().connect();
        PreparedStatement query =
            connection.prepareStatement("SELECT root_run_id FROM deleted_trees");
        ResultSet rs = query.executeQuery()) {
      while (rs.next()) {
        roots.add(rs.getObject(1, UUID.class));
      }
    }
    return roots;
  }
}

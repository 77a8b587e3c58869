package io.baton.store.postgres;

import static io.baton.journal.JournalFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.Checkpoint;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.JournalEntry;
import io.baton.journal.JournalFixtures;
import io.baton.journal.replay.Replay;
import io.baton.journal.replay.TreeState;
import io.baton.store.postgres.testkit.PostgresFixture;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A step completes once across the hot journal and its archive: the archiver leaves a stub of each
 * completion it moves, which V1's unique index counts. Without the stubs (the call to {@code
 * leaveCompletionStubs} taken out of {@code JournalArchive.move}) the refusals below fail: the
 * second completion is written.
 */
class ArchivedCompletionStubsTest {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  private static final long TOKEN = 3;

  private ExecutionJournal journal;

  @BeforeEach
  void open() {
    journal = postgres.stores().journal();
    postgres.database().truncateAll();
  }

  @Test
  void a_second_completion_of_an_archived_step_is_refused_and_the_rest_of_the_batch_commits() {
    JournalFixtures twice = completedAndArchived("charge");
    JournalFixtures other = completedAndArchived("charge");
    List<JournalEntry> history = journal.readHistory(twice.root(), 1, 100);

    List<AppendResult> results =
        journal.appendAll(
            List.of(
                twice.of(TOKEN, twice.stepCompleted("charge", json("n", 2))),
                other.of(TOKEN, other.stepCompleted("ship", json("n", 2)))));

    assertThat(results.get(0))
        .isInstanceOfSatisfying(
            AppendResult.Rejected.class,
            rejected ->
                assertThat(rejected.cause())
                    .isInstanceOf(DuplicateStepCompletionException.class)
                    .hasMessageContaining("completes once"));
    assertThat(results.get(1).isAppended()).isTrue();
    assertThat(journal.readHistory(twice.root(), 1, 100)).isEqualTo(history);
    assertThat(journal.latestSequence(twice.root())).isEqualTo(history.size());
  }

  @Test
  void a_second_completion_after_compact_is_refused_too() {
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.createClaimed("n", TOKEN));
    journal.append(root.of(TOKEN, root.stepCompleted("charge", json("n", 1))));
    journal.append(root.steps(TOKEN, 1));
    checkpointAt(root.root(), 3);
    assertThat(journal.compact(root.root())).isEqualTo(3);

    AppendResult again =
        journal
            .appendAll(List.of(root.of(TOKEN, root.stepCompleted("charge", json("n", 2)))))
            .get(0);

    assertThat(again).isInstanceOf(AppendResult.Rejected.class);
    assertThat(journal.latestSequence(root.root())).isEqualTo(4);
  }

  @Test
  void stubs_are_returned_by_no_read_and_change_no_replay() throws SQLException {
    JournalFixtures root = JournalFixtures.newRoot();
    List<JournalEntry> all = new ArrayList<>(appendAndKeep(root.createClaimed("n", TOKEN)));
    all.addAll(appendAndKeep(root.steps(TOKEN, 5)));
    TreeState full = Replay.replay(journal, root.root()).orElseThrow();
    checkpointAt(root.root(), 6);
    archiveEverythingCovered();

    assertThat(stubs(root.root())).isEqualTo(4);
    assertThat(journal.readFrom(root.root(), 0, 100))
        .extracting(JournalEntry::seq)
        .containsExactly(7L);
    assertThat(journal.readFrom(root.root(), -10, 100))
        .extracting(JournalEntry::seq)
        .containsExactly(7L);
    assertThat(journal.readAll(List.of(root.root())).get(root.root()))
        .extracting(JournalEntry::seq)
        .containsExactly(7L);
    assertThat(journal.readAllAfter(Map.of(root.root(), 0L)).get(root.root()))
        .extracting(JournalEntry::seq)
        .containsExactly(7L);
    assertThat(journal.readHistory(root.root(), 0, 100)).containsExactlyElementsOf(all);
    assertThat(journal.latestSequence(root.root())).isEqualTo(7);
    assertThat(Replay.replay(journal, root.root()).orElseThrow().toSnapshot())
        .isEqualTo(full.toSnapshot());
  }

  @Test
  void the_same_step_of_another_run_still_completes_after_the_first_is_archived() {
    completedAndArchived("charge");
    JournalFixtures another = JournalFixtures.newRoot();
    journal.append(another.createClaimed("n", TOKEN));

    journal.append(another.of(TOKEN, another.stepCompleted("charge", json("n", 1))));

    assertThat(journal.latestSequence(another.root())).isEqualTo(3);
  }

  @Test
  void second_completions_racing_the_archiver_are_all_refused() throws Exception {
    List<JournalFixtures> roots = new ArrayList<>();
    for (int i = 0; i < 48; i++) {
      JournalFixtures root = JournalFixtures.newRoot();
      journal.append(root.createClaimed("n", TOKEN));
      journal.append(root.of(TOKEN, root.stepCompleted("charge", json("n", 1))));
      journal.append(root.steps(TOKEN, 1));
      checkpointAt(root.root(), 3);
      roots.add(root);
    }
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<?> archiver = pool.submit(this::archiveEverythingCovered);
      Future<List<AppendResult>> seconds =
          pool.submit(
              () -> {
                List<AppendResult> results = new ArrayList<>();
                for (JournalFixtures root : roots) {
                  AppendRequest again = root.of(TOKEN, root.stepCompleted("charge", json("n", 2)));
                  results.add(journal.appendAll(List.of(again)).get(0));
                }
                return results;
              });
      archiver.get(60, TimeUnit.SECONDS);
      List<AppendResult> results = seconds.get(60, TimeUnit.SECONDS);
      archiveEverythingCovered();

      assertThat(results).noneMatch(AppendResult::isAppended);
      for (JournalFixtures root : roots) {
        assertThat(journal.latestSequence(root.root())).isEqualTo(4);
        assertThat(stubs(root.root())).isEqualTo(1);
      }
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  /**
   * V12 gives the completions archived before it their stubs: history as an archiver before V12
   * left it (the stubs deleted), then V12 applied again.
   */
  @Test
  void the_v12_migration_gives_completions_archived_before_it_their_stubs() throws SQLException {
    JournalFixtures archivedBefore;
    JournalFixtures completedTwiceBefore;
    archivedBefore = completedAndArchived("charge");
    withoutStubs(archivedBefore);
    completedTwiceBefore = completedAndArchived("charge");
    withoutStubs(completedTwiceBefore);
    journal.append(
        completedTwiceBefore.of(TOKEN, completedTwiceBefore.stepCompleted("charge", json("n", 2))));
    assertThat(stubs(archivedBefore.root())).isZero();

    // V12's script once more, as a database whose archiver ran before V12 would run it (Flyway
    // itself would refuse to apply 12 again below the later versions).
    execute(migrationScript("V12__archived_completion_stubs.sql"));

    assertThat(stubs(archivedBefore.root())).isEqualTo(2);
    AppendResult again =
        journal
            .appendAll(
                List.of(
                    archivedBefore.of(TOKEN, archivedBefore.stepCompleted("charge", json("n", 3)))))
            .get(0);
    assertThat(again).isInstanceOf(AppendResult.Rejected.class);
    assertThat(journal.latestSequence(archivedBefore.root())).isEqualTo(4);
    // The second completion journaled before V12 stays (nothing can undo it); its first gets no
    // stub, as the hot one holds the key, and the migration did not fail on it.
    assertThat(stubs(completedTwiceBefore.root())).isEqualTo(1);
    assertThat(journal.readHistory(completedTwiceBefore.root(), 1, 100)).hasSize(5);
  }

  /** A root whose step {@code step} and one more completed and were archived. */
  private JournalFixtures completedAndArchived(String step) {
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.createClaimed("n", TOKEN));
    journal.append(root.of(TOKEN, root.stepCompleted(step, json("n", 1))));
    journal.append(root.steps(TOKEN, 1));
    checkpointAt(root.root(), 4);
    archiveEverythingCovered();
    assertThat(journal.readFrom(root.root(), 1, 100)).isEmpty();
    return root;
  }

  private void archiveEverythingCovered() {
    int batches = 0;
    while (journal.archiveCovered(5) > 0) {
      assertThat(++batches).as("archiving ends").isLessThan(1000);
    }
  }

  private void checkpointAt(UUID root, long seq) {
    TreeState state = Replay.fold(root, journal.readHistory(root, 1, (int) seq));
    journal.checkpoint(root, TOKEN, new Checkpoint(seq, state.toSnapshot(), JournalFixtures.T0));
  }

  private List<JournalEntry> appendAndKeep(AppendRequest request) {
    journal.append(request);
    return request.entries();
  }

  private static int stubs(UUID root) throws SQLException {
    try (Connection connection = postgres.database().connect();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT count(*) FROM journal WHERE root_run_id = ? AND seq < 0"
                    + " AND event ->> 'type' = 'StepCompleted' AND (event ->> 'stub')::boolean")) {
      statement.setObject(1, root);
      try (ResultSet rs = statement.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  private static String migrationScript(String name) {
    try (InputStream script =
        ArchivedCompletionStubsTest.class
            .getClassLoader()
            .getResourceAsStream("db/migration/postgresql/" + name)) {
      return new String(
          Objects.requireNonNull(script, name).readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void execute(String sql) throws SQLException {
    try (Connection connection = postgres.database().connect();
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  /** Deletes the root's completion stubs: its archive as an archiver before V12 left it. */
  private static void withoutStubs(JournalFixtures root) throws SQLException {
    execute("DELETE FROM journal WHERE seq < 0 AND root_run_id = '" + root.root() + "'");
  }
}

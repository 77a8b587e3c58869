package io.baton.store.postgres;

import static io.baton.journal.JournalFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.GroupCommitter;
import io.baton.journal.JournalFixtures;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.journal.RunStatusChanged;
import io.baton.journal.StepCompleted;
import io.baton.journal.UnknownRootException;
import io.baton.store.DuplicateIdempotencyKeyException;
import io.baton.store.MetadataStore;
import io.baton.store.SignalType;
import io.baton.store.StoreException;
import io.baton.store.postgres.testkit.PostgresFixture;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Group commit on PostgreSQL: one transaction per batch, and each request decided alone. */
class BatchAppendTest {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  private ExecutionJournal journal;
  private MetadataStore metadata;

  @BeforeEach
  void open() {
    journal = postgres.stores().journal();
    metadata = postgres.stores().metadata();
  }

  @Test
  void step_appends_of_many_runs_commit_in_one_transaction() throws SQLException {
    List<JournalFixtures> roots = createRoots(50, 3);
    List<AppendRequest> steps = new ArrayList<>();
    roots.forEach(root -> steps.add(root.steps(3, 2)));

    assertThat(journal.appendAll(steps)).allMatch(AppendResult::isAppended);

    assertThat(transactionsThatWrote(roots, 3)).isEqualTo(1);
  }

  @Test
  void creations_claims_and_completions_of_many_runs_commit_in_one_transaction()
      throws SQLException {
    List<JournalFixtures> roots = new ArrayList<>();
    List<AppendRequest> batch = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      JournalFixtures root = JournalFixtures.newRoot();
      roots.add(root);
      batch.add(root.createClaimed("node-a", 3));
      batch.add(root.of(3, root.completed()));
    }

    assertThat(journal.appendAll(batch)).allMatch(AppendResult::isAppended);

    assertThat(transactionsThatWrote(roots, 1)).isEqualTo(1);
    assertThat(metadata.findRun(roots.get(7).root()).orElseThrow().status())
        .isEqualTo(RunStatus.SUCCEEDED);
  }

  /**
   * A batch of step appends bumps latest_seq on many roots created together, so on neighbouring
   * rows of the same pages in one transaction. Those bumps must mostly stay heap-only (on their
   * page): one that spills writes an entry into every index of runs, which is what cost the engine
   * a tenth of its throughput once the listing indexes came (V9).
   */
  @Test
  void step_appends_of_runs_created_together_mostly_stay_on_their_pages() throws SQLException {
    List<JournalFixtures> roots = createRoots(300, 3);
    Map<UUID, Long> before = pagesOf(roots);

    List<AppendRequest> steps = new ArrayList<>();
    roots.forEach(root -> steps.add(root.steps(3, 2)));
    assertThat(journal.appendAll(steps)).allMatch(AppendResult::isAppended);

    Map<UUID, Long> after = pagesOf(roots);
    long stayed =
        before.keySet().stream().filter(id -> before.get(id).equals(after.get(id))).count();
    assertThat(stayed)
        .as("rows whose bumps stayed on their page")
        .isGreaterThan(roots.size() * 2 / 3);
  }

  @Test
  void requests_of_one_root_in_a_batch_apply_in_order_with_other_roots_in_between() {
    JournalFixtures busy = JournalFixtures.newRoot();
    JournalFixtures quiet = createRoots(1, 2).get(0);
    List<AppendRequest> batch =
        List.of(
            busy.createClaimed("node-a", 2),
            quiet.steps(2, 1),
            busy.steps(2, 2),
            busy.claim("node-b", 5),
            busy.steps(5, 1),
            busy.of(2, busy.stepCompleted("zombie", json("x", 1))));

    List<AppendResult> results = journal.appendAll(batch);

    assertThat(results.subList(0, 5)).allMatch(AppendResult::isAppended);
    assertThat(results.get(5)).isEqualTo(new AppendResult.FencedOut(busy.root(), 2, 5));
    assertThat(journal.latestSequence(busy.root())).isEqualTo(6);
    assertThat(journal.currentToken(busy.root())).hasValue(5);
    assertThat(metadata.findRun(busy.root()).orElseThrow().orchestratorId()).isEqualTo("node-b");
  }

  @Test
  void a_value_postgres_cannot_store_fails_only_its_request() {
    List<JournalFixtures> roots = createRoots(3, 1);
    JournalFixtures bad = roots.get(1);
    List<AppendRequest> batch =
        List.of(
            roots.get(0).steps(1, 1),
            bad.of(1, bad.stepCompleted("nul", json("text", "before\u0000after"))),
            roots.get(2).steps(1, 1));

    List<AppendResult> results = journal.appendAll(batch);

    assertThat(results.get(0)).isEqualTo(new AppendResult.Appended(roots.get(0).root(), 3, false));
    assertThat(results.get(1))
        .isInstanceOfSatisfying(
            AppendResult.Rejected.class,
            rejected ->
                assertThat(rejected.cause())
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining(bad.root().toString()));
    assertThat(results.get(2)).isEqualTo(new AppendResult.Appended(roots.get(2).root(), 3, false));
    assertThat(journal.latestSequence(bad.root())).isEqualTo(2);
  }

  @Test
  void a_second_completion_of_a_step_is_refused_and_the_rest_of_the_batch_commits() {
    List<JournalFixtures> roots = createRoots(2, 1);
    JournalFixtures twice = roots.get(0);
    journal.append(twice.of(1, twice.stepCompleted("charge", json("n", 1))));
    AppendRequest again = twice.of(1, twice.stepCompleted("charge", json("n", 2)));

    List<AppendResult> results = journal.appendAll(List.of(again, roots.get(1).steps(1, 1)));

    assertThat(results.get(0))
        .isInstanceOfSatisfying(
            AppendResult.Rejected.class,
            rejected ->
                assertThat(rejected.cause())
                    .isInstanceOf(DuplicateStepCompletionException.class)
                    .hasMessageContaining("completes once"));
    assertThat(results.get(1).isAppended()).isTrue();
    assertThat(journal.latestSequence(twice.root())).isEqualTo(3);
  }

  @Test
  void two_new_roots_with_one_idempotency_key_in_one_batch_create_only_the_first() {
    JournalFixtures first = JournalFixtures.newRoot();
    JournalFixtures second = JournalFixtures.newRoot();
    String key = "order-" + UUID.randomUUID();
    List<AppendResult> results =
        journal.appendAll(
            List.of(
                first.of(1, first.rootEntry(new RunCreated("f", "h", null, null, null, key, null))),
                second.of(
                    1, second.rootEntry(new RunCreated("f", "h", null, null, null, key, null)))));

    assertThat(results.get(0).isAppended()).isTrue();
    assertThat(results.get(1))
        .isInstanceOfSatisfying(
            AppendResult.Rejected.class,
            r -> assertThat(r.cause()).isInstanceOf(DuplicateIdempotencyKeyException.class));
    assertThat(metadata.findRunByIdempotencyKey(key).orElseThrow().runId()).isEqualTo(first.root());
    assertThat(metadata.findRun(second.root())).isEmpty();
  }

  /**
   * A batch of nothing but creations is written in one statement (as the event dispatcher's batches
   * of triggered runs are); a creation whose idempotency key a stored run holds writes nothing
   * there, neither row nor entries, and is answered as a duplicate, while its neighbours commit.
   */
  @Test
  void a_batch_of_creations_with_a_taken_key_creates_the_others_and_refuses_only_that_one()
      throws SQLException {
    String key = "order-" + UUID.randomUUID();
    JournalFixtures holder = JournalFixtures.newRoot();
    journal.append(holder.of(1, holder.rootEntry(keyed(key))));
    List<JournalFixtures> fresh = new ArrayList<>();
    List<AppendRequest> batch = new ArrayList<>();
    JournalFixtures late = JournalFixtures.newRoot();
    for (int i = 0; i < 20; i++) {
      JournalFixtures root = JournalFixtures.newRoot();
      fresh.add(root);
      batch.add(root.createClaimed("node-a", 1));
      if (i == 9) {
        batch.add(late.of(1, late.rootEntry(keyed(key))));
      }
    }

    List<AppendResult> results = journal.appendAll(batch);

    assertThat(results.get(10))
        .isInstanceOfSatisfying(
            AppendResult.Rejected.class,
            r -> assertThat(r.cause()).isInstanceOf(DuplicateIdempotencyKeyException.class));
    assertThat(results.subList(0, 10)).allMatch(AppendResult::isAppended);
    assertThat(results.subList(11, 21)).allMatch(AppendResult::isAppended);
    assertThat(metadata.findRun(late.root())).isEmpty();
    assertThat(journalRows(late.root())).isZero();
    assertThat(metadata.findRunByIdempotencyKey(key).orElseThrow().runId())
        .isEqualTo(holder.root());
    assertThat(transactionsThatWrote(fresh, 1)).isEqualTo(1);
    assertThat(journal.latestSequence(fresh.get(19).root())).isEqualTo(2);
  }

  /** A creation retried after an ambiguous commit is answered appended, in a batch of creations. */
  @Test
  void a_retried_creation_in_a_batch_of_creations_is_answered_appended_and_written_once() {
    JournalFixtures retried = JournalFixtures.newRoot();
    AppendRequest creation = retried.createClaimed("node-a", 1);
    journal.append(creation);
    JournalFixtures other = JournalFixtures.newRoot();

    List<AppendResult> results =
        journal.appendAll(List.of(creation, other.createClaimed("node-a", 1)));

    assertThat(results).allMatch(AppendResult::isAppended);
    assertThat(journal.latestSequence(retried.root())).isEqualTo(2);
    assertThat(journal.latestSequence(other.root())).isEqualTo(2);
  }

  private static long journalRows(UUID root) throws SQLException {
    try (Connection connection = postgres.database().connect();
        PreparedStatement query =
            connection.prepareStatement("SELECT count(*) FROM journal WHERE root_run_id = ?")) {
      query.setObject(1, root);
      try (ResultSet rs = query.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private static RunCreated keyed(String key) {
    return new RunCreated("f", "h", null, null, null, key, null);
  }

  @Test
  void entries_for_an_unknown_run_or_a_run_of_another_tree_are_refused() {
    List<JournalFixtures> roots = createRoots(2, 1);
    JournalFixtures mine = roots.get(0);
    JournalFixtures other = roots.get(1);
    UUID strangersChild = UUID.randomUUID();
    journal.append(
        other.of(
            1,
            other.entry(
                strangersChild,
                new RunCreated("sub", "h", null, other.root(), "call", null, null))));

    List<AppendResult> results =
        journal.appendAll(
            List.of(
                mine.of(1, mine.entry(UUID.randomUUID(), new StepCompleted("s", 1, null, null))),
                mine.at(3).of(1, mine.entry(strangersChild, new StepCompleted("s", 1, null, null))),
                JournalFixtures.newRoot().at(2).steps(1, 1)));

    assertThat(results.get(0))
        .isInstanceOfSatisfying(
            AppendResult.Rejected.class, r -> assertThat(r.cause()).hasMessageContaining("no run"));
    assertThat(results.get(1))
        .isInstanceOfSatisfying(
            AppendResult.Rejected.class,
            r -> assertThat(r.cause()).hasMessageContaining("belongs to the tree of"));
    assertThat(results.get(2))
        .isInstanceOfSatisfying(
            AppendResult.Rejected.class,
            r -> assertThat(r.cause()).isInstanceOf(UnknownRootException.class));
    assertThat(journal.latestSequence(mine.root())).isEqualTo(2);
  }

  @Test
  void a_run_parked_in_a_batch_is_due_at_its_oldest_signal() {
    JournalFixtures root = createRoots(1, 2).get(0);
    journal.append(
        root.of(2, root.rootEntry(RunStatusChanged.to(RunStatus.PENDING, RunStatus.RUNNING, ""))));
    Instant signalled = Instant.parse("2026-03-01T11:00:00.000001Z");
    metadata.addSignal(root.root(), SignalType.APPROVE, "approve", null, signalled);
    Instant timer = signalled.plusSeconds(3600);

    journal.appendAll(
        List.of(
            root.of(
                2,
                root.rootEntry(
                    new RunStatusChanged(
                        RunStatus.RUNNING, RunStatus.WAITING, "park", false, timer))),
            JournalFixtures.newRoot().createClaimed("n", 1)));

    assertThat(metadata.findRun(root.root()).orElseThrow().wakeAt()).isEqualTo(signalled);
    assertThat(metadata.findDueWaitingRoots(signalled, 10)).contains(root.root());
  }

  @Test
  void group_commit_serves_many_concurrent_runs_in_order() {
    List<JournalFixtures> roots = createRoots(32, 1);
    try (GroupCommitter committer =
        new GroupCommitter(journal, 64, Duration.ZERO, 2, "batch-test")) {
      List<CompletableFuture<Void>> runs = new ArrayList<>();
      for (JournalFixtures root : roots) {
        runs.add(
            CompletableFuture.runAsync(
                () -> {
                  for (int i = 0; i < 20; i++) {
                    committer.submit(root.steps(1, 1)).join().throwIfFailed();
                  }
                }));
      }
      runs.forEach(CompletableFuture::join);
    }
    for (JournalFixtures root : roots) {
      assertThat(journal.readFrom(root.root(), 3, 100))
          .extracting(e -> ((StepCompleted) e.event()).step())
          .containsExactlyElementsOf(
              LongStream.rangeClosed(3, 22).mapToObj(s -> "step-" + s).toList());
    }
  }

  private List<JournalFixtures> createRoots(int count, long token) {
    List<JournalFixtures> roots = new ArrayList<>();
    List<AppendRequest> creations = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      JournalFixtures root = JournalFixtures.newRoot();
      roots.add(root);
      creations.add(root.createClaimed("node-a", token));
    }
    assertThat(journal.appendAll(creations)).allMatch(AppendResult::isAppended);
    return roots;
  }

  /** The heap page each root's row version is on now. */
  private static Map<UUID, Long> pagesOf(List<JournalFixtures> roots) throws SQLException {
    Map<UUID, Long> pages = new HashMap<>();
    try (Connection connection = postgres.database().connect();
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT id, (ctid::text::point)[0]::bigint FROM runs WHERE id = ANY(?)")) {
      query.setArray(
          1, connection.createArrayOf("uuid", roots.stream().map(JournalFixtures::root).toArray()));
      try (ResultSet rs = query.executeQuery()) {
        while (rs.next()) {
          pages.put(rs.getObject(1, UUID.class), rs.getLong(2));
        }
      }
    }
    return pages;
  }

  /** How many transactions wrote the roots' entries from {@code fromSeq} on. */
  private static long transactionsThatWrote(List<JournalFixtures> roots, long fromSeq)
      throws SQLException {
    try (Connection connection = postgres.database().connect();
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT count(DISTINCT xmin::text) FROM journal"
                    + " WHERE root_run_id = ANY(?) AND seq >= ?")) {
      query.setArray(
          1, connection.createArrayOf("uuid", roots.stream().map(JournalFixtures::root).toArray()));
      query.setLong(2, fromSeq);
      try (ResultSet rs = query.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}

package io.baton.journal;

import static io.baton.journal.JournalFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.replay.Replay;
import io.baton.journal.replay.TreeState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link ExecutionJournal}. Every implementation's test extends this class and
 * supplies only the journal; the in-memory journal and the PostgreSQL journal pass the same tests.
 */
public abstract class ExecutionJournalComplianceSuite {
  protected ExecutionJournal journal;

  /** A fresh, empty journal for one test. */
  protected abstract ExecutionJournal createJournal() throws Exception;

  /** Releases what {@link #createJournal()} opened. */
  protected void closeJournal(ExecutionJournal journal) throws Exception {}

  @BeforeEach
  void openJournal() throws Exception {
    journal = createJournal();
  }

  @AfterEach
  void releaseJournal() throws Exception {
    closeJournal(journal);
  }

  @Test
  void appended_entries_read_back_exactly_and_in_order() {
    JournalFixtures root = JournalFixtures.newRoot();
    AppendRequest create = root.createClaimed("node-a", 5);
    AppendRequest steps = root.steps(5, 3);
    journal.append(create);
    journal.append(steps);

    List<JournalEntry> expected = new ArrayList<>(create.entries());
    expected.addAll(steps.entries());
    assertThat(journal.readFrom(root.root(), 1, 100)).containsExactlyElementsOf(expected);
    assertThat(journal.latestSequence(root.root())).isEqualTo(5);
  }

  @Test
  void every_event_type_and_json_value_survives_the_round_trip() {
    JournalFixtures root = JournalFixtures.newRoot();
    UUID child = UUID.randomUUID();
    JsonNode rich =
        JournalCodec.mapper()
            .valueToTree(
                Map.of(
                    "text", "Grüße, \"quoted\" \u2603",
                    "list", List.of(1, 2.5, true, "x"),
                    "nested", Map.of("big", 12345678901234L, "neg", -7)));
    Instant due = Instant.parse("2026-03-01T10:20:00.654321Z");
    List<JournalEntry> entries =
        List.of(
            root.rootEntry(
                new RunCreated(
                    "ship",
                    "h1",
                    rich,
                    null,
                    null,
                    "key-1",
                    json("kind", "order"),
                    "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")),
            root.claimed("node-a", 3),
            root.rootEntry(RunStatusChanged.to(RunStatus.PENDING, RunStatus.RUNNING, "claimed")),
            root.rootEntry(new StepFailed("reserve", 1, "http_5xx", "boom", true, due, due)),
            root.rootEntry(new StepCompleted("reserve", 2, rich, due)),
            root.rootEntry(new RunWaiting("approve", WaitReason.APPROVAL, null, json("p", "?"))),
            root.rootEntry(new RunWoken("approve", WaitReason.APPROVAL, "approved", null)),
            root.entry(child, new RunCreated("sub", "h2", rich, root.root(), "call", null, null)),
            root.entry(child, RunCompleted.failed(new ErrorInfo("timeout", "slow"), true)),
            root.rootEntry(
                new RunStatusChanged(RunStatus.RUNNING, RunStatus.WAITING, "park", false, due)),
            root.rootEntry(RunCompleted.succeeded(rich)));
    journal.append(new AppendRequest(root.root(), 3, entries));

    assertThat(journal.readFrom(root.root(), 1, 100)).containsExactlyElementsOf(entries);
  }

  @Test
  void reads_page_from_a_sequence_with_a_limit() {
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.create(1));
    journal.append(root.claim("n", 2));
    journal.append(root.steps(2, 10));

    List<JournalEntry> page = journal.readFrom(root.root(), 4, 5);
    assertThat(page).extracting(JournalEntry::seq).containsExactly(4L, 5L, 6L, 7L, 8L);
    assertThat(journal.readFrom(root.root(), 12, 5))
        .extracting(JournalEntry::seq)
        .containsExactly(12L);
    assertThat(journal.readFrom(root.root(), 13, 5)).isEmpty();
  }

  @Test
  void unknown_root_has_no_entries_no_sequence_and_no_token() {
    UUID unknown = UUID.randomUUID();
    assertThat(journal.readFrom(unknown, 1, 10)).isEmpty();
    assertThat(journal.latestSequence(unknown)).isZero();
    assertThat(journal.currentToken(unknown)).isEmpty();
    assertThat(journal.getCheckpoint(unknown)).isEmpty();
  }

  @Test
  void appending_to_an_unknown_root_without_creating_it_fails() {
    JournalFixtures root = JournalFixtures.newRoot();
    root.at(1);
    AppendRequest orphanSteps = root.steps(1, 1);
    assertThatThrownBy(() -> journal.append(orphanSteps)).isInstanceOf(UnknownRootException.class);
    assertThat(journal.latestSequence(root.root())).isZero();
  }

  @Test
  void creating_a_root_sets_the_fence_to_the_creators_token() {
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.create(0));
    assertThat(journal.currentToken(root.root())).hasValue(0);

    JournalFixtures owned = JournalFixtures.newRoot();
    journal.append(owned.createClaimed("node-a", 17));
    assertThat(journal.currentToken(owned.root())).hasValue(17);
  }

  @Test
  void stale_owner_cannot_append_after_run_is_claimed() {
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.createClaimed("node-a", 5));
    journal.append(root.claim("node-b", 9));

    AppendRequest zombie = root.steps(5, 2);
    assertThatThrownBy(() -> journal.append(zombie))
        .isInstanceOfSatisfying(
            FencedOutException.class,
            e -> {
              assertThat(e.staleToken()).isEqualTo(5);
              assertThat(e.currentToken()).isEqualTo(9);
              assertThat(e.getMessage())
                  .contains(root.root().toString())
                  .contains("5")
                  .contains("9");
            });
    assertThat(journal.latestSequence(root.root())).isEqualTo(3);
  }

  @Test
  void a_larger_token_without_a_claim_is_fenced_out_too() {
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.createClaimed("node-a", 5));
    assertThatThrownBy(() -> journal.append(root.steps(6, 1)))
        .isInstanceOf(FencedOutException.class);
  }

  @Test
  void a_claim_with_a_smaller_token_is_fenced_out() {
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.createClaimed("node-a", 9));
    assertThatThrownBy(() -> journal.append(root.claim("node-b", 4)))
        .isInstanceOf(FencedOutException.class);
    assertThat(journal.currentToken(root.root())).hasValue(9);
  }

  @Test
  void the_same_owner_may_claim_again_with_its_token() {
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.createClaimed("node-a", 9));
    journal.append(root.claim("node-a", 9));
    journal.append(root.steps(9, 1));
    assertThat(journal.latestSequence(root.root())).isEqualTo(4);
  }

  @Test
  void an_append_that_leaves_a_gap_is_a_sequence_conflict() {
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.createClaimed("node-a", 2));
    root.at(5);
    assertThatThrownBy(() -> journal.append(root.steps(2, 1)))
        .isInstanceOfSatisfying(
            SequenceConflictException.class,
            e -> {
              assertThat(e.firstSeq()).isEqualTo(5);
              assertThat(e.latestSeq()).isEqualTo(2);
            });
  }

  @Test
  void different_content_at_a_written_sequence_is_a_conflict_and_changes_nothing() {
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.createClaimed("node-a", 2));
    journal.append(root.steps(2, 2));
    root.at(3);
    AppendRequest other = root.of(2, root.stepCompleted("other", json("x", 1)));
    assertThatThrownBy(() -> journal.append(other)).isInstanceOf(SequenceConflictException.class);
    assertThat(journal.readFrom(root.root(), 3, 1).get(0).event())
        .isInstanceOfSatisfying(StepCompleted.class, s -> assertThat(s.step()).isEqualTo("step-3"));
  }

  @Test
  void recreating_an_existing_root_with_other_content_is_a_conflict() {
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.createClaimed("node-a", 2));
    root.at(1);
    AppendRequest again =
        root.of(0, root.rootEntry(RunCreated.root("flow-b", "hash-b", json("x", 2))));
    assertThatThrownBy(() -> journal.append(again)).isInstanceOf(SequenceConflictException.class);
  }

  @Test
  void repeating_an_identical_append_succeeds_without_writing_twice() {
    JournalFixtures root = JournalFixtures.newRoot();
    AppendRequest create = root.createClaimed("node-a", 5);
    AppendRequest steps = root.steps(5, 2);
    journal.append(create);
    journal.append(steps);

    journal.append(steps);
    journal.append(create);
    assertThat(journal.appendAll(List.of(steps)))
        .singleElement()
        .isEqualTo(new AppendResult.Appended(root.root(), 4, true));
    assertThat(journal.readFrom(root.root(), 1, 100)).hasSize(4);
  }

  @Test
  void an_ambiguous_commit_retried_after_the_run_moved_on_is_still_recognised() {
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.createClaimed("node-a", 5));
    AppendRequest committed = root.steps(5, 1);
    journal.append(committed);
    journal.append(root.claim("node-b", 8));

    journal.append(committed);
    assertThat(journal.latestSequence(root.root())).isEqualTo(4);
  }

  @Test
  void append_all_fails_a_fenced_run_alone_and_commits_the_others() {
    JournalFixtures a = JournalFixtures.newRoot();
    JournalFixtures b = JournalFixtures.newRoot();
    JournalFixtures c = JournalFixtures.newRoot();
    journal.appendAll(
        List.of(a.createClaimed("n", 1), b.createClaimed("n", 1), c.createClaimed("n", 1)));
    journal.append(b.claim("other", 4));

    List<AppendResult> results =
        journal.appendAll(List.of(a.steps(1, 2), b.steps(1, 2), c.steps(1, 1)));

    assertThat(results.get(0)).isEqualTo(new AppendResult.Appended(a.root(), 4, false));
    assertThat(results.get(1)).isEqualTo(new AppendResult.FencedOut(b.root(), 1, 4));
    assertThat(results.get(2)).isEqualTo(new AppendResult.Appended(c.root(), 3, false));
    assertThat(journal.latestSequence(a.root())).isEqualTo(4);
    assertThat(journal.latestSequence(b.root())).isEqualTo(3);
    assertThat(journal.latestSequence(c.root())).isEqualTo(3);
  }

  @Test
  void append_all_applies_requests_for_one_root_in_order() {
    JournalFixtures root = JournalFixtures.newRoot();
    List<AppendResult> results =
        journal.appendAll(List.of(root.createClaimed("n", 3), root.steps(3, 1), root.steps(3, 1)));
    assertThat(results).allMatch(AppendResult::isAppended);
    assertThat(journal.latestSequence(root.root())).isEqualTo(4);
  }

  @Test
  void append_all_reports_conflicts_and_unknown_roots_per_request() {
    JournalFixtures known = JournalFixtures.newRoot();
    journal.append(known.createClaimed("n", 3));
    JournalFixtures unknown = JournalFixtures.newRoot().at(2);
    known.at(7);

    List<AppendResult> results = journal.appendAll(List.of(known.steps(3, 1), unknown.steps(3, 1)));

    assertThat(results.get(0)).isEqualTo(new AppendResult.SequenceConflict(known.root(), 7, 2));
    assertThat(results.get(1))
        .isInstanceOfSatisfying(
            AppendResult.Rejected.class,
            r -> assertThat(r.cause()).isInstanceOf(UnknownRootException.class));
  }

  @Test
  void checkpoints_are_fenced_and_bounded_by_the_journal() {
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.createClaimed("n", 3));
    Checkpoint checkpoint = new Checkpoint(2, json("state", 1), JournalFixtures.T0);

    assertThatThrownBy(() -> journal.checkpoint(root.root(), 2, checkpoint))
        .isInstanceOf(FencedOutException.class);
    Checkpoint beyond = new Checkpoint(3, json("state", 1), JournalFixtures.T0);
    assertThatThrownBy(() -> journal.checkpoint(root.root(), 3, beyond))
        .isInstanceOf(IllegalArgumentException.class);

    journal.checkpoint(root.root(), 3, checkpoint);
    assertThat(journal.getCheckpoint(root.root())).hasValue(checkpoint);
  }

  @Test
  void compaction_drops_covered_entries_and_replay_from_the_checkpoint_gives_the_same_state() {
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.createClaimed("n", 3));
    journal.append(root.steps(3, 4));
    TreeState atSix = Replay.replay(journal, root.root()).orElseThrow();
    journal.checkpoint(root.root(), 3, new Checkpoint(6, atSix.toSnapshot(), JournalFixtures.T0));
    journal.append(root.steps(3, 2));
    TreeState full = Replay.replay(journal, root.root()).orElseThrow();

    assertThat(journal.compact(root.root())).isEqualTo(6);
    assertThat(journal.compact(root.root())).isZero();

    assertThat(journal.readFrom(root.root(), 1, 100))
        .extracting(JournalEntry::seq)
        .containsExactly(7L, 8L);
    assertThat(journal.latestSequence(root.root())).isEqualTo(8);
    TreeState compacted = Replay.replay(journal, root.root()).orElseThrow();
    assertThat(compacted.toSnapshot()).isEqualTo(full.toSnapshot());
  }

  @Test
  void compacted_entries_stay_readable_in_the_history_as_one_sequence() {
    JournalFixtures root = JournalFixtures.newRoot();
    List<JournalEntry> all = new ArrayList<>();
    all.addAll(appendAndKeep(root.createClaimed("n", 3)));
    all.addAll(appendAndKeep(root.steps(3, 6)));
    checkpointAt(root.root(), 3, 6);

    assertThat(journal.compact(root.root())).isEqualTo(6);

    assertThat(journal.readFrom(root.root(), 1, 100))
        .extracting(JournalEntry::seq)
        .containsExactly(7L, 8L);
    assertThat(journal.readHistory(root.root(), 1, 100)).containsExactlyElementsOf(all);
    assertThat(journal.readHistory(root.root(), 5, 2)).containsExactlyElementsOf(all.subList(4, 6));
    assertThat(journal.readHistory(root.root(), 6, 2)).containsExactlyElementsOf(all.subList(5, 7));
    assertThat(journal.readHistory(root.root(), 9, 2)).isEmpty();
    assertThat(journal.readHistory(UUID.randomUUID(), 1, 10)).isEmpty();
  }

  @Test
  void the_archiver_moves_covered_entries_in_bounded_batches_and_never_beyond_the_checkpoint() {
    List<JournalFixtures> roots = new ArrayList<>();
    Map<UUID, List<JournalEntry>> appended = new HashMap<>();
    for (int i = 0; i < 3; i++) {
      JournalFixtures root = JournalFixtures.newRoot();
      roots.add(root);
      List<JournalEntry> all = new ArrayList<>(appendAndKeep(root.createClaimed("n", 3)));
      all.addAll(appendAndKeep(root.steps(3, 10)));
      appended.put(root.root(), all);
    }
    JournalFixtures uncheckpointed = roots.get(2);
    checkpointAt(roots.get(0).root(), 3, 9);
    checkpointAt(roots.get(1).root(), 3, 4);
    TreeState before = Replay.replay(journal, roots.get(0).root()).orElseThrow();

    int moved = 0;
    int batch;
    int batches = 0;
    while ((batch = journal.archiveCovered(5)) > 0) {
      assertThat(batch).isLessThanOrEqualTo(5);
      moved += batch;
      batches++;
      assertThat(batches).as("archiving ends").isLessThan(20);
    }

    assertThat(moved).isEqualTo(9 + 4);
    assertThat(journal.readFrom(roots.get(0).root(), 1, 100))
        .extracting(JournalEntry::seq)
        .containsExactly(10L, 11L, 12L);
    assertThat(journal.readFrom(roots.get(1).root(), 1, 100))
        .first()
        .extracting(JournalEntry::seq)
        .isEqualTo(5L);
    assertThat(journal.readFrom(uncheckpointed.root(), 1, 100)).hasSize(12);
    for (JournalFixtures root : roots) {
      assertThat(journal.readHistory(root.root(), 1, 100))
          .containsExactlyElementsOf(appended.get(root.root()));
    }
    assertThat(Replay.replay(journal, roots.get(0).root()).orElseThrow().toSnapshot())
        .isEqualTo(before.toSnapshot());
    assertThat(journal.latestSequence(roots.get(0).root())).isEqualTo(12);
  }

  @Test
  void appends_and_checkpoints_go_on_while_archivers_run_and_the_history_loses_nothing()
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      JournalFixtures root = JournalFixtures.newRoot();
      List<JournalEntry> all = new ArrayList<>(appendAndKeep(root.createClaimed("n", 3)));
      AtomicBoolean writing = new AtomicBoolean(true);
      AtomicInteger archived = new AtomicInteger();
      List<Future<?>> archivers = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        archivers.add(
            pool.submit(
                () -> {
                  while (writing.get()) {
                    archived.addAndGet(journal.archiveCovered(3));
                  }
                  return null;
                }));
      }
      Future<?> writer =
          pool.submit(
              () -> {
                for (int i = 0; i < 30; i++) {
                  all.addAll(appendAndKeep(root.steps(3, 4)));
                  checkpointAt(root.root(), 3, journal.latestSequence(root.root()) - 1);
                }
                writing.set(false);
                return null;
              });
      writer.get(60, TimeUnit.SECONDS);
      for (Future<?> archiver : archivers) {
        archiver.get(60, TimeUnit.SECONDS);
      }
      int rest;
      while ((rest = journal.archiveCovered(50)) > 0) {
        archived.addAndGet(rest);
      }

      assertThat(archived.get()).isEqualTo(all.size() - 1);
      assertThat(journal.readFrom(root.root(), 1, 1000))
          .extracting(JournalEntry::seq)
          .containsExactly((long) all.size());
      assertThat(journal.readHistory(root.root(), 1, 1000)).containsExactlyElementsOf(all);
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  /**
   * Archiving must not weaken what an append may write: whatever a journal does with a second
   * completion of a step while the first is hot (the PostgreSQL journal refuses it; the in-memory
   * ones keep it, for the simulation's oracle to see), it does the same once the first is archived,
   * by {@link ExecutionJournal#compact} or by the background archiver.
   */
  @Test
  void a_second_step_completion_is_treated_alike_whether_the_first_is_hot_or_archived() {
    AppendResult whileHot = secondCompletion(Archiving.NONE);

    for (Archiving archiving : List.of(Archiving.COMPACT, Archiving.ARCHIVER)) {
      AppendResult afterArchiving = secondCompletion(archiving);
      assertThat(afterArchiving.isAppended())
          .as("a second completion after %s, where while hot it gave %s", archiving, whileHot)
          .isEqualTo(whileHot.isAppended());
      if (!whileHot.isAppended()) {
        assertThat(afterArchiving).isInstanceOf(whileHot.getClass());
      }
    }
  }

  private enum Archiving {
    NONE,
    COMPACT,
    ARCHIVER
  }

  /** Completes step "charge" of a new root, archives that (or not), and completes it again. */
  private AppendResult secondCompletion(Archiving archiving) {
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.createClaimed("n", 3));
    List<JournalEntry> history = new ArrayList<>(journal.readHistory(root.root(), 1, 10));
    history.addAll(appendAndKeep(root.of(3, root.stepCompleted("charge", json("n", 1)))));
    history.addAll(appendAndKeep(root.steps(3, 1)));
    if (archiving != Archiving.NONE) {
      checkpointAt(root.root(), 3, 3);
    }
    if (archiving == Archiving.COMPACT) {
      assertThat(journal.compact(root.root())).isEqualTo(3);
    }
    if (archiving == Archiving.ARCHIVER) {
      int moved = 0;
      int batch;
      while ((batch = journal.archiveCovered(100)) > 0) {
        moved += batch;
      }
      assertThat(moved).isEqualTo(3);
      assertThat(journal.readFrom(root.root(), 1, 10))
          .extracting(JournalEntry::seq)
          .containsExactly(4L);
    }
    AppendRequest again = root.of(3, root.stepCompleted("charge", json("n", 2)));
    AppendResult result = journal.appendAll(List.of(again)).get(0);
    if (result.isAppended()) {
      history.addAll(again.entries());
    }
    assertThat(journal.readHistory(root.root(), 1, 10)).containsExactlyElementsOf(history);
    assertThat(journal.latestSequence(root.root())).isEqualTo(history.size());
    return result;
  }

  private List<JournalEntry> appendAndKeep(AppendRequest request) {
    journal.append(request);
    return request.entries();
  }

  /** Stores a checkpoint at {@code seq} holding the state a full replay gives there. */
  private void checkpointAt(UUID root, long token, long seq) {
    TreeState state = Replay.fold(root, journal.readHistory(root, 1, (int) seq));
    journal.checkpoint(root, token, new Checkpoint(seq, state.toSnapshot(), JournalFixtures.T0));
  }

  @Test
  void reading_many_roots_at_once_gives_what_reading_each_gives() {
    JournalFixtures plain = JournalFixtures.newRoot();
    journal.append(plain.createClaimed("n", 3));
    journal.append(plain.steps(3, 3));
    JournalFixtures checkpointed = JournalFixtures.newRoot();
    journal.append(checkpointed.createClaimed("n", 4));
    journal.append(checkpointed.steps(4, 4));
    TreeState atSix = Replay.replay(journal, checkpointed.root()).orElseThrow();
    journal.checkpoint(
        checkpointed.root(), 4, new Checkpoint(6, atSix.toSnapshot(), JournalFixtures.T0));
    journal.compact(checkpointed.root());
    journal.append(checkpointed.steps(4, 1));
    UUID unknown = UUID.randomUUID();
    List<UUID> roots = List.of(plain.root(), checkpointed.root(), unknown);

    var entries = journal.readAll(roots);
    assertThat(entries).containsOnlyKeys(plain.root(), checkpointed.root());
    assertThat(entries.get(plain.root()))
        .containsExactlyElementsOf(journal.readFrom(plain.root(), 1, 100));
    assertThat(entries.get(checkpointed.root())).extracting(JournalEntry::seq).containsExactly(7L);
    assertThat(journal.getCheckpoints(roots)).containsOnlyKeys(checkpointed.root());

    var trees = Replay.replayAll(journal, roots);
    assertThat(trees).containsOnlyKeys(plain.root(), checkpointed.root());
    for (UUID root : List.of(plain.root(), checkpointed.root())) {
      assertThat(trees.get(root).toSnapshot())
          .isEqualTo(Replay.replay(journal, root).orElseThrow().toSnapshot());
    }
  }

  @Test
  void reading_many_roots_after_given_sequences_returns_only_what_follows_them() {
    JournalFixtures first = JournalFixtures.newRoot();
    journal.append(first.createClaimed("n", 3));
    journal.append(first.steps(3, 4));
    JournalFixtures second = JournalFixtures.newRoot();
    journal.append(second.createClaimed("n", 4));
    journal.append(second.steps(4, 2));
    JournalFixtures caughtUp = JournalFixtures.newRoot();
    journal.append(caughtUp.createClaimed("n", 5));
    UUID unknown = UUID.randomUUID();
    Map<UUID, Long> after = new LinkedHashMap<>();
    after.put(first.root(), 4L);
    after.put(second.root(), 0L);
    after.put(caughtUp.root(), 2L);
    after.put(unknown, 0L);

    var entries = journal.readAllAfter(after);

    assertThat(entries).containsOnlyKeys(first.root(), second.root());
    assertThat(entries.get(first.root())).extracting(JournalEntry::seq).containsExactly(5L, 6L);
    assertThat(entries.get(second.root()))
        .containsExactlyElementsOf(journal.readFrom(second.root(), 1, 100));
  }

  @Test
  void active_roots_exclude_terminal_ones_and_page_without_loss() {
    Set<UUID> active = new HashSet<>();
    Set<UUID> terminal = new HashSet<>();
    for (int i = 0; i < 7; i++) {
      JournalFixtures root = JournalFixtures.newRoot();
      journal.append(root.createClaimed("n", 1));
      if (i % 3 == 0) {
        journal.append(root.of(1, root.completed()));
        terminal.add(root.root());
      } else {
        active.add(root.root());
      }
    }
    Set<UUID> seen = new HashSet<>();
    UUID after = null;
    List<UUID> page;
    do {
      page = journal.listActiveRoots(after, 2);
      assertThat(page.size()).isLessThanOrEqualTo(2);
      for (UUID id : page) {
        assertThat(seen.add(id)).as("root listed twice: %s", id).isTrue();
      }
      after = page.isEmpty() ? after : page.get(page.size() - 1);
    } while (!page.isEmpty());
    assertThat(seen).containsAll(active).doesNotContainAnyElementsOf(terminal);
  }

  @Test
  void a_resumed_root_is_active_again() {
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.createClaimed("n", 1));
    journal.append(
        root.of(1, root.rootEntry(RunCompleted.failed(new ErrorInfo("boom", "x"), true))));
    assertThat(activeRoots()).doesNotContain(root.root());
    journal.append(
        root.of(
            2,
            root.claimed("m", 2),
            root.rootEntry(RunStatusChanged.to(RunStatus.FAILED, RunStatus.RUNNING, "resumed"))));
    assertThat(activeRoots()).contains(root.root());
  }

  private List<UUID> activeRoots() {
    return journal.listActiveRoots(null, 10_000);
  }

  @Test
  void racing_owners_never_interleave_after_the_newer_claim() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 200; round++) {
        raceOnce(pool, round);
      }
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  private void raceOnce(ExecutorService pool, int round) throws Exception {
    UUID rootId = UUID.randomUUID();
    journal.append(new JournalFixtures(rootId).createClaimed("old", 10));
    CountDownLatch start = new CountDownLatch(1);
    Future<Integer> old = pool.submit(() -> writeUntilFenced(rootId, "old", 10, start, false));
    Future<Integer> fresh = pool.submit(() -> writeUntilFenced(rootId, "new", 11, start, true));
    start.countDown();
    old.get(30, TimeUnit.SECONDS);
    fresh.get(30, TimeUnit.SECONDS);

    List<JournalEntry> entries = journal.readFrom(rootId, 1, 10_000);
    boolean claimed = false;
    for (JournalEntry entry : entries) {
      if (entry.event() instanceof RunClaimed claim && claim.token() == 11) {
        claimed = true;
      } else if (claimed && entry.event() instanceof StepCompleted step) {
        assertThat(step.output().get("writer").asText()).as("round %d", round).isEqualTo("new");
      }
    }
    assertThat(claimed).isTrue();
  }

  /** Appends until fenced out (the old writer) or until 20 entries followed its claim. */
  private int writeUntilFenced(
      UUID rootId, String writer, long token, CountDownLatch start, boolean claim)
      throws InterruptedException {
    start.await();
    int written = 0;
    boolean claimPending = claim;
    while (written < 20) {
      long seq = journal.latestSequence(rootId) + 1;
      JournalFixtures at = new JournalFixtures(rootId).at(seq);
      AppendRequest request =
          claimPending
              ? at.claim(writer, token)
              : at.of(token, at.stepCompleted("s" + seq, json("writer", writer)));
      try {
        journal.append(request);
        claimPending = false;
        written++;
      } catch (SequenceConflictException lostRace) {
        // the other writer took this sequence; read again and retry
      } catch (FencedOutException fenced) {
        return written;
      }
    }
    return written;
  }
}

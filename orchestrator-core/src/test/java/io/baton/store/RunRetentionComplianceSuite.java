package io.baton.store;

import static io.baton.store.RunWriter.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.journal.Checkpoint;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.journal.replay.Replay;
import io.baton.store.RunRetention.Deadline;
import io.baton.store.RunRetention.Discarded;
import io.baton.store.RunRetention.FinishedTree;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link RunRetention}: which trees count as finished, deadlines that hold for one
 * finish only, bounded deletion of a tree with everything that belongs to it, and the discard of a
 * tree that is not live. Every implementation's test extends this class and supplies only its
 * {@link Stores}.
 */
public abstract class RunRetentionComplianceSuite extends MetadataStoreComplianceBase {
  private static final Instant DAY_1 = T0.plus(Duration.ofDays(1));
  private static final Instant DAY_2 = T0.plus(Duration.ofDays(2));

  private RunWriter succeeded() {
    return newRun().running("f", "node-a", 5).succeed(json("ok", true));
  }

  private List<UUID> finishedRoots() {
    return metadata.finishedWithoutDeadline(10_000).stream().map(FinishedTree::rootRunId).toList();
  }

  private void expireAt(Instant deleteAt, RunWriter... runs) {
    List<Deadline> deadlines = new ArrayList<>();
    for (RunWriter run : runs) {
      Instant finishedAt = metadata.findRun(run.root()).orElseThrow().updatedAt();
      deadlines.add(new Deadline(run.root(), finishedAt, deleteAt));
    }
    metadata.setDeadlines(deadlines);
  }

  @Test
  void finished_trees_are_listed_until_given_a_deadline_and_live_ones_or_recoverable_never() {
    RunWriter done = succeeded();
    RunWriter cancelled =
        newRun().running("f", "node-a", 5).status(RunStatus.RUNNING, RunStatus.CANCELLED);
    RunWriter failedForGood = newRun().running("f", "node-a", 5).fail("boom", false);
    RunWriter recoverable = newRun().running("f", "node-a", 5).fail("boom", true);
    RunWriter running = newRun().running("f", "node-a", 5);
    RunWriter parked = newRun().running("f", "node-a", 5).park(DAY_1);
    RunWriter pending = newRun().create("f", null);
    UUID child = done.child(done.root(), "sub");

    assertThat(finishedRoots())
        .containsExactlyInAnyOrder(done.root(), cancelled.root(), failedForGood.root())
        .doesNotContain(recoverable.root(), running.root(), parked.root(), pending.root(), child);
    FinishedTree listed =
        metadata.finishedWithoutDeadline(10_000).stream()
            .filter(tree -> tree.rootRunId().equals(done.root()))
            .findFirst()
            .orElseThrow();
    assertThat(listed.finishedAt())
        .isEqualTo(metadata.findRun(done.root()).orElseThrow().updatedAt());
    assertThat(listed.flowName()).isEqualTo("f");
    assertThat(listed.flowHash()).isEqualTo("hash-f");

    expireAt(DAY_1, done, cancelled, failedForGood, recoverable, running);
    assertThat(finishedRoots()).isEmpty();
    assertThat(metadata.deleteExpired(DAY_2, 100))
        .containsExactlyInAnyOrder(done.root(), cancelled.root(), failedForGood.root());
    assertThat(metadata.findRun(recoverable.root())).isPresent();
    assertThat(metadata.findRun(running.root())).isPresent();
  }

  @Test
  void an_expired_tree_goes_with_its_subflows_journal_archive_and_checkpoint_and_nothing_else() {
    RunWriter doomed = newRun().running("f", "node-a", 5);
    UUID child = doomed.child(doomed.root(), "sub");
    doomed.succeed(json("ok", true));
    long covered = journal.latestSequence(doomed.root()) - 1;
    journal.checkpoint(
        doomed.root(),
        5,
        new Checkpoint(
            covered,
            Replay.fold(doomed.root(), journal.readHistory(doomed.root(), 1, (int) covered))
                .toSnapshot(),
            T0));
    journal.compact(doomed.root());
    RunWriter later = succeeded();
    RunWriter live = newRun().running("f", "node-a", 5);
    expireAt(DAY_1, doomed);
    expireAt(DAY_2.plus(Duration.ofDays(5)), later);

    assertThat(metadata.deleteExpired(DAY_1.minusNanos(1000), 100)).isEmpty();
    assertThat(metadata.deleteExpired(DAY_2, 100)).containsExactly(doomed.root());

    assertThat(metadata.findRun(doomed.root())).isEmpty();
    assertThat(metadata.findRun(child)).isEmpty();
    assertThat(metadata.listTree(doomed.root())).isEmpty();
    assertThat(journal.readHistory(doomed.root(), 1, 100)).isEmpty();
    assertThat(journal.readFrom(doomed.root(), 1, 100)).isEmpty();
    assertThat(journal.getCheckpoint(doomed.root())).isEmpty();
    assertThat(journal.latestSequence(doomed.root())).isZero();
    assertThat(metadata.findRun(later.root())).isPresent();
    assertThat(journal.readHistory(later.root(), 1, 100)).isNotEmpty();
    assertThat(metadata.findRun(live.root())).isPresent();
    assertThat(metadata.deleteExpired(DAY_2, 100)).isEmpty();
  }

  @Test
  void a_deadline_for_another_finish_or_a_tree_not_finished_does_not_count() {
    RunWriter done = succeeded();
    Instant finishedAt = metadata.findRun(done.root()).orElseThrow().updatedAt();
    RunWriter recoverable = newRun().running("f", "node-a", 5).fail("boom", true);

    metadata.setDeadlines(
        List.of(
            new Deadline(done.root(), finishedAt.minusSeconds(1), DAY_1),
            new Deadline(
                recoverable.root(),
                metadata.findRun(recoverable.root()).orElseThrow().updatedAt(),
                DAY_1)));

    assertThat(finishedRoots()).containsExactly(done.root());
    assertThat(metadata.deleteExpired(DAY_2, 100)).isEmpty();
    assertThat(metadata.findRun(recoverable.root())).isPresent();
  }

  @Test
  void deletion_takes_at_most_the_limit_per_call_oldest_deadline_first() {
    List<RunWriter> runs = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      RunWriter run = succeeded();
      expireAt(T0.plus(Duration.ofHours(i)), run);
      runs.add(run);
    }

    assertThat(metadata.deleteExpired(DAY_2, 2))
        .containsExactly(runs.get(0).root(), runs.get(1).root());
    assertThat(metadata.deleteExpired(DAY_2, 2)).hasSize(2);
    assertThat(metadata.deleteExpired(DAY_2, 2)).containsExactly(runs.get(4).root());
    assertThat(metadata.deleteExpired(DAY_2, 2)).isEmpty();
  }

  @Test
  void a_discard_deletes_a_tree_that_is_not_live_and_refuses_a_live_one() {
    RunWriter recoverable = newRun().running("f", "node-a", 5).fail("boom", true);
    RunWriter running = newRun().running("f", "node-a", 5);

    assertThat(metadata.discardTree(running.root())).isEqualTo(Discarded.LIVE);
    assertThat(metadata.findRun(running.root())).isPresent();
    assertThat(metadata.discardTree(recoverable.root())).isEqualTo(Discarded.DELETED);
    assertThat(metadata.findRun(recoverable.root())).isEmpty();
    assertThat(journal.readHistory(recoverable.root(), 1, 10)).isEmpty();
    assertThat(metadata.discardTree(recoverable.root())).isEqualTo(Discarded.ABSENT);
    assertThat(metadata.discardTree(UUID.randomUUID())).isEqualTo(Discarded.ABSENT);
  }

  @Test
  void blobs_go_with_the_last_tree_that_references_them_unless_a_flow_version_does() {
    String loose = stores.blobs().put("flow", bytes("loose definition"));
    String versioned = stores.blobs().put("flow", bytes("versioned definition"));
    metadata.saveFlow(new FlowRecord("kept", versioned, T0));
    RunWriter first = runOf(loose);
    RunWriter second = runOf(loose);
    RunWriter third = runOf(versioned);
    expireAt(DAY_1, first, third);

    assertThat(metadata.deleteExpired(DAY_2, 100))
        .containsExactlyInAnyOrder(first.root(), third.root());
    assertThat(stores.blobs().contains(loose)).as("still referenced by a run").isTrue();
    assertThat(stores.blobs().contains(versioned)).as("a flow version names it").isTrue();

    expireAt(DAY_1, second);
    assertThat(metadata.deleteExpired(DAY_2, 100)).containsExactly(second.root());
    assertThat(stores.blobs().contains(loose)).isFalse();
    assertThat(stores.blobs().contains(versioned)).isTrue();
  }

  private RunWriter runOf(String flowHash) {
    RunWriter run = newRun();
    run.append(run.root(), new RunCreated("f", flowHash, json("n", 1), null, null, null, null));
    return run.claim("node-a", 5)
        .status(RunStatus.PENDING, RunStatus.RUNNING)
        .succeed(json("ok", true));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}

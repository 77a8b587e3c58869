package io.baton.store.postgres;

import static io.baton.journal.JournalFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.journal.AppendRequest;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.FencedOutException;
import io.baton.journal.GroupCommitter;
import io.baton.journal.JournalEntry;
import io.baton.journal.JournalFixtures;
import io.baton.journal.RunClaimed;
import io.baton.journal.SequenceConflictException;
import io.baton.journal.StepCompleted;
import io.baton.store.RunRecord;
import io.baton.store.Stores;
import io.baton.store.postgres.testkit.AppendStream.Sender;
import io.baton.store.postgres.testkit.PostgresFixture;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two nodes race on the same run trees: the old owner keeps appending under its token while the new
 * owner claims with a larger one. Whatever the interleaving, nothing of the old owner commits after
 * the claim, and the claim never goes backwards.
 */
class FencingRaceTest {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  private static final int PAIRS = 4;
  private static final int ROUNDS_PER_PAIR = 500;
  private static final long OLD_TOKEN = 10;
  private static final long NEW_TOKEN = 11;

  private static Stores oldNode;
  private static Stores newNode;

  @BeforeAll
  static void openTwoNodes() {
    oldNode = PostgresStores.create(postgres.config().maxPoolSize(3).build(), Clock.systemUTC());
    newNode = PostgresStores.create(postgres.config().maxPoolSize(3).build(), Clock.systemUTC());
  }

  @AfterAll
  static void closeNodes() throws Exception {
    oldNode.close();
    newNode.close();
  }

  @Test
  void only_the_newer_token_ever_commits_across_thousands_of_interleavings() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2 * PAIRS);
    try (GroupCommitter oldCommitter =
            new GroupCommitter(oldNode.journal(), 64, Duration.ZERO, 2, "old-node");
        GroupCommitter newCommitter =
            new GroupCommitter(newNode.journal(), 64, Duration.ZERO, 2, "new-node")) {
      List<Future<Integer>> pairs = new ArrayList<>();
      for (int pair = 0; pair < PAIRS; pair++) {
        boolean grouped = pair % 2 == 1;
        Sender oldSender =
            grouped ? Sender.grouped(oldCommitter) : Sender.direct(oldNode.journal());
        Sender newSender =
            grouped ? Sender.grouped(newCommitter) : Sender.direct(newNode.journal());
        pairs.add(pool.submit(() -> raceRounds(oldSender, newSender)));
      }
      int fencedOut = 0;
      for (Future<Integer> pair : pairs) {
        fencedOut += pair.get(5, TimeUnit.MINUTES);
      }
      assertThat(fencedOut).as("old writers that were told they are fenced").isPositive();
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
  }

  /** Runs the rounds of one pair of writers; returns how often the old writer was fenced out. */
  private int raceRounds(Sender oldSender, Sender newSender) throws Exception {
    int fencedOut = 0;
    ExecutorService writers = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < ROUNDS_PER_PAIR; round++) {
        UUID root = UUID.randomUUID();
        newNode.journal().append(new JournalFixtures(root).createClaimed("old", OLD_TOKEN));
        int headStart = ThreadLocalRandom.current().nextInt(4);
        CountDownLatch oldWrote = new CountDownLatch(headStart);
        Future<Boolean> old =
            writers.submit(() -> writeUntilFenced(oldNode.journal(), oldSender, root, oldWrote));
        Future<?> fresh =
            writers.submit(
                () -> {
                  oldWrote.await();
                  claimAndWrite(newNode.journal(), newSender, root);
                  return null;
                });
        fresh.get(60, TimeUnit.SECONDS);
        fencedOut += old.get(60, TimeUnit.SECONDS) ? 1 : 0;
        assertOnlyTheNewOwnerWroteAfterItsClaim(root);
      }
    } finally {
      writers.shutdownNow();
    }
    return fencedOut;
  }

  /** The old owner appends until fenced out (true) or until it wrote 12 entries (false). */
  private static boolean writeUntilFenced(
      ExecutionJournal reader, Sender sender, UUID root, CountDownLatch wrote) throws Exception {
    for (int written = 0; written < 12; ) {
      long seq = reader.latestSequence(root) + 1;
      JournalFixtures at = new JournalFixtures(root).at(seq);
      try {
        sender.send(at.of(OLD_TOKEN, at.stepCompleted("old-" + seq, json("writer", "old"))));
        written++;
        wrote.countDown();
      } catch (SequenceConflictException lostTheRace) {
        // the new owner took this sequence; read the end again
      } catch (FencedOutException fenced) {
        assertThat(fenced.staleToken()).isEqualTo(OLD_TOKEN);
        assertThat(fenced.currentToken()).isEqualTo(NEW_TOKEN);
        while (wrote.getCount() > 0) {
          wrote.countDown();
        }
        return true;
      }
    }
    return false;
  }

  private static void claimAndWrite(ExecutionJournal reader, Sender sender, UUID root)
      throws Exception {
    boolean claimed = false;
    int written = 0;
    while (written < 3) {
      long seq = reader.latestSequence(root) + 1;
      JournalFixtures at = new JournalFixtures(root).at(seq);
      AppendRequest request =
          claimed
              ? at.of(NEW_TOKEN, at.stepCompleted("new-" + seq, json("writer", "new")))
              : at.claim("new", NEW_TOKEN);
      try {
        sender.send(request);
        claimed = true;
        written++;
      } catch (SequenceConflictException lostTheRace) {
        // the old owner took this sequence; read the end again
      }
    }
  }

  private static void assertOnlyTheNewOwnerWroteAfterItsClaim(UUID root) {
    List<JournalEntry> entries = newNode.journal().readFrom(root, 1, 1000);
    boolean claimed = false;
    for (JournalEntry entry : entries) {
      if (entry.event() instanceof RunClaimed claim && claim.token() == NEW_TOKEN) {
        claimed = true;
      } else if (entry.event() instanceof StepCompleted step) {
        String writer = step.output().get("writer").asText();
        assertThat(writer)
            .as("entry %d of %s", entry.seq(), root)
            .isEqualTo(claimed ? "new" : "old");
      }
    }
    assertThat(claimed).isTrue();
    assertThat(entries).hasSize((int) newNode.journal().latestSequence(root));
    RunRecord row = newNode.metadata().findRun(root).orElseThrow();
    assertThat(row.ownerToken()).isEqualTo(NEW_TOKEN);
    assertThat(row.orchestratorId()).isEqualTo("new");
  }

  @Test
  void a_late_claim_with_an_older_token_changes_neither_the_fence_nor_the_recorded_owner() {
    ExecutionJournal journal = newNode.journal();
    JournalFixtures root = JournalFixtures.newRoot();
    journal.append(root.createClaimed("node-a", 5));
    journal.append(root.claim("node-b", 9));

    assertThatThrownBy(() -> journal.append(root.at(4).claim("node-c", 7)))
        .isInstanceOfSatisfying(
            FencedOutException.class,
            e -> assertThat(e).hasMessageContaining("token 7 is stale").hasMessageContaining("9"));

    RunRecord row = newNode.metadata().findRun(root.root()).orElseThrow();
    assertThat(row.ownerToken()).isEqualTo(9);
    assertThat(row.orchestratorId()).isEqualTo("node-b");
    assertThat(journal.latestSequence(root.root())).isEqualTo(3);
  }
}

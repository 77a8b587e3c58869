package io.baton.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.JournalFixtures;
import io.baton.journal.RunCreated;
import io.baton.store.DuplicateIdempotencyKeyException;
import io.baton.store.Stores;
import io.baton.store.postgres.testkit.PostgresFixture;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two nodes create run trees at the same moment. No row exists yet to lock, so the database's
 * unique keys decide; the loser must get the answer the reference journal gives, not an error.
 */
class ConcurrentCreationTest {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  private static final int ROUNDS = 100;

  private static Stores nodeA;
  private static Stores nodeB;
  private static ExecutorService pool;

  @BeforeAll
  static void openTwoNodes() {
    nodeA = PostgresStores.create(postgres.config().maxPoolSize(2).build(), Clock.systemUTC());
    nodeB = PostgresStores.create(postgres.config().maxPoolSize(2).build(), Clock.systemUTC());
    pool = Executors.newFixedThreadPool(2);
  }

  @AfterAll
  static void close() throws Exception {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    nodeA.close();
    nodeB.close();
  }

  @Test
  void two_roots_created_at_once_with_one_idempotency_key_yield_one_run_and_one_refusal()
      throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      String key = "order-" + UUID.randomUUID();
      JournalFixtures first = JournalFixtures.newRoot();
      JournalFixtures second = JournalFixtures.newRoot();
      List<AppendResult> results =
          race(
              nodeA.journal(),
              first.of(1, first.rootEntry(new RunCreated("f", "h", null, null, null, key, null))),
              nodeB.journal(),
              second.of(
                  1, second.rootEntry(new RunCreated("f", "h", null, null, null, key, null))));

      assertThat(results).filteredOn(AppendResult::isAppended).hasSize(1);
      assertThat(results)
          .filteredOn(r -> !r.isAppended())
          .singleElement()
          .isInstanceOfSatisfying(
              AppendResult.Rejected.class,
              r -> assertThat(r.cause()).isInstanceOf(DuplicateIdempotencyKeyException.class));
      UUID winner = results.get(0).isAppended() ? first.root() : second.root();
      UUID loser = winner.equals(first.root()) ? second.root() : first.root();
      assertThat(nodeA.metadata().findRunByIdempotencyKey(key).orElseThrow().runId())
          .isEqualTo(winner);
      assertThat(nodeA.journal().latestSequence(loser)).isZero();
    }
  }

  @Test
  void the_same_root_created_at_once_by_two_nodes_is_written_once_and_reported_to_both()
      throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      JournalFixtures root = JournalFixtures.newRoot();
      AppendRequest create = root.createClaimed("node-a", 3);
      List<AppendResult> results = race(nodeA.journal(), create, nodeB.journal(), create);

      assertThat(results)
          .allSatisfy(r -> assertThat(r).isInstanceOf(AppendResult.Appended.class))
          .extracting(r -> ((AppendResult.Appended) r).alreadyPresent())
          .containsExactlyInAnyOrder(true, false);
      assertThat(nodeA.journal().readFrom(root.root(), 1, 10)).hasSize(2);
      assertThat(nodeA.metadata().listTree(root.root())).hasSize(1);
    }
  }

  /** Sends the two requests at the same moment, each from its own node. */
  private static List<AppendResult> race(
      ExecutionJournal first, AppendRequest one, ExecutionJournal second, AppendRequest other)
      throws Exception {
    CyclicBarrier start = new CyclicBarrier(2);
    CompletableFuture<AppendResult> a =
        CompletableFuture.supplyAsync(() -> appendAt(start, first, one), pool);
    CompletableFuture<AppendResult> b =
        CompletableFuture.supplyAsync(() -> appendAt(start, second, other), pool);
    return List.of(a.get(30, TimeUnit.SECONDS), b.get(30, TimeUnit.SECONDS));
  }

  private static AppendResult appendAt(
      CyclicBarrier start, ExecutionJournal journal, AppendRequest request) {
    try {
      start.await(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return journal.appendAll(List.of(request)).get(0);
  }
}

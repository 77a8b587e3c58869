package io.baton.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.baton.journal.AppendRequest;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.GroupCommitter;
import io.baton.journal.JournalFixtures;
import io.baton.store.StoreUnavailableException;
import io.baton.store.Stores;
import io.baton.store.postgres.testkit.AppendStream;
import io.baton.store.postgres.testkit.AppendStream.Sender;
import io.baton.store.postgres.testkit.PrivatePostgresCluster;
import io.baton.store.postgres.testkit.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL stopped, crashed and restarted under a stream of appends, on a private cluster (the
 * shared test server is never restarted).
 */
class PostgresRestartTest {
  private static PrivatePostgresCluster cluster;
  private static TestDatabase database;

  @BeforeAll
  static void startCluster() {
    cluster = PrivatePostgresCluster.create();
    database = cluster.createDatabase("restart");
  }

  @AfterAll
  static void removeCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @AfterEach
  void serverRunsForTheNextTest() {
    if (!cluster.isRunning()) {
      cluster.start();
    }
  }

  @Test
  void every_acknowledged_append_is_present_exactly_once_after_crashes_and_restarts()
      throws Exception {
    try (Stores stores = open(Duration.ofSeconds(90));
        GroupCommitter committer =
            new GroupCommitter(stores.journal(), 32, Duration.ZERO, 2, "restart-test")) {
      ExecutionJournal journal = stores.journal();
      AppendStream stream =
          new AppendStream(
              journal,
              List.of(
                  Sender.direct(journal),
                  Sender.direct(journal),
                  Sender.grouped(committer),
                  Sender.grouped(committer),
                  Sender.grouped(committer),
                  Sender.grouped(committer)));
      try {
        awaitMoreAcknowledged(stream, 200);
        cluster.restart("immediate");
        awaitMoreAcknowledged(stream, 200);
        cluster.restart("fast");
        awaitMoreAcknowledged(stream, 200);
      } finally {
        stream.stop();
      }

      assertThat(stream.failedAttempts()).as("appends were retried, not failed").isZero();
      for (AppendStream.Acknowledged acknowledged : stream.acknowledgedByRoot()) {
        assertThat(journal.readFrom(acknowledged.root(), 1, 100_000))
            .extracting(AppendStream::asJson)
            .containsExactlyElementsOf(
                acknowledged.entries().stream().map(AppendStream::asJson).toList());
        assertThat(journal.latestSequence(acknowledged.root()))
            .isEqualTo(acknowledged.entries().size());
      }
    }
  }

  @Test
  void an_append_waits_while_the_server_is_down_and_completes_when_it_is_back() throws Exception {
    try (Stores stores = open(Duration.ofSeconds(90))) {
      ExecutionJournal journal = stores.journal();
      JournalFixtures root = JournalFixtures.newRoot();
      journal.append(root.createClaimed("node-a", 1));
      AppendRequest step = root.steps(1, 1);

      cluster.stop("fast");
      CompletableFuture<Void> append = CompletableFuture.runAsync(() -> journal.append(step));
      await()
          .during(Duration.ofSeconds(2))
          .atMost(Duration.ofSeconds(5))
          .until(() -> !append.isDone());
      cluster.start();

      await().atMost(Duration.ofSeconds(60)).until(append::isDone);
      append.get();
      assertThat(journal.readFrom(root.root(), 3, 10))
          .extracting(AppendStream::asJson)
          .containsExactly(AppendStream.asJson(step.entries().get(0)));
    }
  }

  @Test
  void a_call_gives_up_with_store_unavailable_once_the_retry_window_closes() throws Exception {
    try (Stores stores = open(Duration.ofSeconds(1))) {
      ExecutionJournal journal = stores.journal();
      JournalFixtures root = JournalFixtures.newRoot();
      journal.append(root.createClaimed("node-a", 1));
      AppendRequest step = root.steps(1, 1);

      cluster.stop("fast");
      assertThatThrownBy(() -> journal.append(step))
          .isInstanceOfSatisfying(
              StoreUnavailableException.class,
              unavailable -> {
                assertThat(unavailable.getMessage()).contains("stayed unavailable");
                assertThat(unavailable.getCause()).isNotNull();
              });
      assertThatThrownBy(() -> stores.metadata().ping())
          .isInstanceOf(StoreUnavailableException.class);

      cluster.start();
      journal.append(step);
      assertThat(journal.latestSequence(root.root())).isEqualTo(3);
    }
  }

  private static Stores open(Duration retryWindow) {
    return PostgresStores.create(
        database
            .config()
            .connectionTimeout(Duration.ofSeconds(1))
            .transientRetryWindow(retryWindow)
            .build(),
        Clock.systemUTC());
  }

  private static void awaitMoreAcknowledged(AppendStream stream, int more) {
    int target = stream.acknowledged() + more;
    await().atMost(Duration.ofSeconds(90)).until(() -> stream.acknowledged() >= target);
  }
}

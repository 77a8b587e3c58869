package io.baton.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.GroupCommitter;
import io.baton.journal.JournalFixtures;
import io.baton.store.Stores;
import io.baton.store.postgres.testkit.AppendStream;
import io.baton.store.postgres.testkit.AppendStream.Sender;
import io.baton.store.postgres.testkit.CuttingProxy;
import io.baton.store.postgres.testkit.PostgresFixture;
import io.baton.store.postgres.testkit.PostgresServer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The connection dies between COMMIT and its reply (or just before COMMIT), cut at the exact
 * protocol message by a proxy: the retry must neither write a second copy nor lose the first.
 */
class AmbiguousCommitTest {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  private CuttingProxy proxy;
  private Stores stores;
  private ExecutionJournal journal;
  private ExecutionJournal direct;

  @BeforeEach
  void openThroughProxy() throws Exception {
    PostgresServer server = postgres.database().server();
    proxy = new CuttingProxy(server.host(), server.port());
    stores =
        PostgresStores.create(
            PostgresStoreConfig.builder(proxy.urlOf(postgres.database().name()))
                .user(server.user())
                .password(server.password())
                .sslMode("disable")
                .maxPoolSize(4)
                .transientRetryWindow(Duration.ofSeconds(60))
                .retryBackoff(Duration.ofMillis(10), Duration.ofMillis(200))
                .build(),
            Clock.systemUTC());
    journal = stores.journal();
    direct = postgres.stores().journal();
  }

  @AfterEach
  void close() throws Exception {
    stores.close();
    proxy.close();
  }

  @Test
  void a_step_append_whose_commit_reply_is_lost_is_reported_appended_and_stored_once() {
    JournalFixtures root = JournalFixtures.newRoot();
    AppendRequest create = root.createClaimed("node-a", 4);
    journal.append(create);
    AppendRequest step = root.steps(4, 2);

    proxy.cutAfterCommits(1);
    List<AppendResult> results = journal.appendAll(List.of(step));

    assertThat(proxy.cuts()).isEqualTo(1);
    assertThat(results).containsExactly(new AppendResult.Appended(root.root(), 4, true));
    assertStoredOnce(root, create, step);
  }

  @Test
  void a_lone_creation_whose_commit_reply_is_lost_is_reported_appended_and_stored_once() {
    JournalFixtures root = JournalFixtures.newRoot();
    AppendRequest create = root.createClaimed("node-a", 4);

    proxy.cutAfterCommits(1);
    List<AppendResult> results = journal.appendAll(List.of(create));

    assertThat(proxy.cuts()).isEqualTo(1);
    assertThat(results)
        .as("the retry of the one-statement creation found the row and went the general way")
        .containsExactly(new AppendResult.Appended(root.root(), 2, true));
    assertStoredOnce(root, create);
  }

  @Test
  void a_batch_whose_commit_reply_is_lost_is_reported_appended_and_stored_once() {
    List<JournalFixtures> roots = new ArrayList<>();
    List<AppendRequest> batch = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      JournalFixtures root = JournalFixtures.newRoot();
      roots.add(root);
      batch.add(root.createClaimed("node-a", 2));
      batch.add(root.steps(2, 1));
    }

    proxy.cutAfterCommits(1);
    List<AppendResult> results = journal.appendAll(batch);

    assertThat(proxy.cuts()).isEqualTo(1);
    assertThat(results).allSatisfy(r -> assertThat(r).isInstanceOf(AppendResult.Appended.class));
    assertThat(results)
        .as("the retry found the first attempt committed")
        .allMatch(r -> ((AppendResult.Appended) r).alreadyPresent());
    for (int i = 0; i < roots.size(); i++) {
      assertStoredOnce(roots.get(i), batch.get(2 * i), batch.get(2 * i + 1));
    }
  }

  @Test
  void a_claim_whose_connection_dies_before_commit_is_written_once_by_the_retry() {
    JournalFixtures root = JournalFixtures.newRoot();
    AppendRequest create = root.createClaimed("node-a", 4);
    journal.append(create);
    AppendRequest claim = root.claim("node-b", 9);

    proxy.cutBeforeCommits(1);
    List<AppendResult> results = journal.appendAll(List.of(claim));

    assertThat(proxy.cuts()).isEqualTo(1);
    assertThat(results).containsExactly(new AppendResult.Appended(root.root(), 3, false));
    assertStoredOnce(root, create, claim);
    assertThat(direct.currentToken(root.root())).hasValue(9);
  }

  @Test
  void a_stream_of_appends_with_connections_cut_around_commits_loses_and_doubles_nothing()
      throws Exception {
    try (GroupCommitter committer =
        new GroupCommitter(journal, 16, Duration.ZERO, 2, "ambiguous-test")) {
      AppendStream stream =
          new AppendStream(
              journal,
              List.of(
                  Sender.direct(journal),
                  Sender.direct(journal),
                  Sender.grouped(committer),
                  Sender.grouped(committer),
                  Sender.grouped(committer)));
      try {
        for (int round = 0; round < 20; round++) {
          int before = stream.acknowledged();
          if (round % 2 == 0) {
            proxy.cutAfterCommits(1);
          } else {
            proxy.cutBeforeCommits(1);
          }
          Awaitility.await()
              .atMost(Duration.ofSeconds(60))
              .until(() -> stream.acknowledged() >= before + 20);
        }
      } finally {
        stream.stop();
      }
      assertThat(proxy.cuts()).isGreaterThanOrEqualTo(10);
      for (AppendStream.Acknowledged acknowledged : stream.acknowledgedByRoot()) {
        assertThat(direct.readFrom(acknowledged.root(), 1, 100_000))
            .extracting(AppendStream::asJson)
            .containsExactlyElementsOf(
                acknowledged.entries().stream().map(AppendStream::asJson).toList());
      }
    }
  }

  private void assertStoredOnce(JournalFixtures root, AppendRequest... requests) {
    List<List<Object>> expected = new ArrayList<>();
    for (AppendRequest request : requests) {
      request.entries().forEach(e -> expected.add(AppendStream.asJson(e)));
    }
    assertThat(direct.readFrom(root.root(), 1, 1000))
        .extracting(AppendStream::asJson)
        .containsExactlyElementsOf(expected);
    assertThat(direct.latestSequence(root.root())).isEqualTo(expected.size());
  }
}

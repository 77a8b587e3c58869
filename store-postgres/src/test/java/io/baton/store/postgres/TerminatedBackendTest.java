package io.baton.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.baton.journal.ExecutionJournal;
import io.baton.journal.GroupCommitter;
import io.baton.store.Stores;
import io.baton.store.postgres.testkit.AppendStream;
import io.baton.store.postgres.testkit.AppendStream.Sender;
import io.baton.store.postgres.testkit.PostgresFixture;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The store's backends are terminated with {@code pg_terminate_backend} again and again while
 * appends stream in, hitting transactions at whatever point they are (some between COMMIT and its
 * reply): nothing acknowledged is lost and nothing is written twice.
 */
class TerminatedBackendTest {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  @Test
  void appends_survive_their_backends_being_terminated_over_and_over() throws Exception {
    int terminated = 0;
    try (Stores stores =
            PostgresStores.create(
                postgres
                    .config()
                    .maxPoolSize(6)
                    .retryBackoff(Duration.ofMillis(5), Duration.ofMillis(100))
                    .build(),
                Clock.systemUTC());
        GroupCommitter committer =
            new GroupCommitter(stores.journal(), 16, Duration.ZERO, 2, "terminate-test");
        Connection killer = postgres.database().connect()) {
      ExecutionJournal journal = stores.journal();
      AppendStream stream =
          new AppendStream(
              journal,
              List.of(
                  Sender.direct(journal),
                  Sender.direct(journal),
                  Sender.direct(journal),
                  Sender.grouped(committer),
                  Sender.grouped(committer),
                  Sender.grouped(committer)));
      try {
        for (int round = 0; round < 40; round++) {
          int target = stream.acknowledged() + 15;
          await().atMost(Duration.ofSeconds(60)).until(() -> stream.acknowledged() >= target);
          terminated += terminateStoreBackends(killer);
        }
      } finally {
        stream.stop();
      }
      assertThat(terminated).isPositive();
      for (AppendStream.Acknowledged acknowledged : stream.acknowledgedByRoot()) {
        assertThat(journal.readFrom(acknowledged.root(), 1, 100_000))
            .extracting(AppendStream::asJson)
            .containsExactlyElementsOf(
                acknowledged.entries().stream().map(AppendStream::asJson).toList());
      }
    }
  }

  /** Terminates every backend of the store's pool on this database; returns how many. */
  private static int terminateStoreBackends(Connection killer) throws SQLException {
    try (Statement statement = killer.createStatement();
        ResultSet rs =
            statement.executeQuery(
                "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
                    + " WHERE datname = current_database() AND application_name = 'baton'"
                    + " AND pid <> pg_backend_pid()")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}

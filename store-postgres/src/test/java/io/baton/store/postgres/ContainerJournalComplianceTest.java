package io.baton.store.postgres;

import io.baton.journal.ExecutionJournal;
import io.baton.journal.ExecutionJournalComplianceSuite;
import io.baton.store.Stores;
import io.baton.store.postgres.testkit.PostgresServer;
import io.baton.store.postgres.testkit.TestDatabase;
import java.time.Clock;
import org.junit.jupiter.api.AfterAll;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The journal's contract on a PostgreSQL container, where a Docker engine exists (skipped
 * otherwise; {@link PostgresJournalComplianceTest} runs the same suite on the local server).
 */
@Testcontainers(disabledWithoutDocker = true)
class ContainerJournalComplianceTest extends ExecutionJournalComplianceSuite {
  @Container
  static final PostgreSQLContainer container = new PostgreSQLContainer("postgres:15-alpine");

  private static Stores stores;
  private static TestDatabase database;

  @Override
  protected ExecutionJournal createJournal() {
    if (stores == null) {
      PostgresServer server =
          new PostgresServer(
              container.getJdbcUrl(), container.getUsername(), container.getPassword());
      database = TestDatabase.create(server, "container journal");
      stores = PostgresStores.create(database.config().build(), Clock.systemUTC());
    }
    database.truncateAll();
    return stores.journal();
  }

  @AfterAll
  static void closeStores() throws Exception {
    if (stores != null) {
      stores.close();
      database.close();
    }
  }
}

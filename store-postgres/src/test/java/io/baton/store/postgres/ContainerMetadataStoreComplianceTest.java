package io.baton.store.postgres;

import io.baton.store.MetadataStoreComplianceSuite;
import io.baton.store.Stores;
import io.baton.store.postgres.testkit.PostgresServer;
import io.baton.store.postgres.testkit.TestDatabase;
import java.time.Clock;
import org.junit.jupiter.api.AfterAll;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The metadata store's contract on a PostgreSQL container, where a Docker engine exists (skipped
 * otherwise; {@link PostgresMetadataStoreComplianceTest} runs it on the local server).
 */
@Testcontainers(disabledWithoutDocker = true)
class ContainerMetadataStoreComplianceTest extends MetadataStoreComplianceSuite {
  @Container
  static final PostgreSQLContainer container = new PostgreSQLContainer("postgres:15-alpine");

  private static TestDatabase database;

  @Override
  protected Stores newStores() {
    if (database == null) {
      database =
          TestDatabase.create(
              new PostgresServer(
                  container.getJdbcUrl(), container.getUsername(), container.getPassword()),
              "container metadata");
    }
    Stores stores = PostgresStores.create(database.config().build(), Clock.systemUTC());
    database.truncateAll();
    return stores;
  }

  @AfterAll
  static void dropDatabase() {
    if (database != null) {
      database.close();
    }
  }
}

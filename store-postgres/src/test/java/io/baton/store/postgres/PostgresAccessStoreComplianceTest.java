package io.baton.store.postgres;

import io.baton.store.AccessStoreComplianceSuite;
import io.baton.store.Stores;
import io.baton.store.postgres.testkit.PostgresFixture;
import java.time.Clock;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The access store's contract on a real PostgreSQL database, emptied before each test. */
class PostgresAccessStoreComplianceTest extends AccessStoreComplianceSuite {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  @Override
  protected Stores createStores() {
    Stores stores = PostgresStores.create(postgres.config().build(), Clock.systemUTC());
    postgres.database().truncateAll();
    return stores;
  }
}

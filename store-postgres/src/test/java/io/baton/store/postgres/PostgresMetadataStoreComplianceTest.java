package io.baton.store.postgres;

import io.baton.store.MetadataStoreComplianceSuite;
import io.baton.store.Stores;
import io.baton.store.postgres.testkit.PostgresFixture;
import java.time.Clock;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The metadata store's contract, projection included, on a real PostgreSQL database: the compliance
 * suite of every part of the SPI, on one database emptied before each test.
 */
class PostgresMetadataStoreComplianceTest extends MetadataStoreComplianceSuite {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  @Override
  protected Stores newStores() {
    Stores stores = PostgresStores.create(postgres.config().build(), Clock.systemUTC());
    postgres.database().truncateAll();
    return stores;
  }
}

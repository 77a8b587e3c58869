package io.baton.store.postgres;

import io.baton.store.FlowStoreComplianceSuite;
import io.baton.store.RunIndexComplianceSuite;
import io.baton.store.SignalInboxComplianceSuite;
import io.baton.store.StoreHealthComplianceSuite;
import io.baton.store.Stores;
import io.baton.store.postgres.testkit.PostgresFixture;
import java.time.Clock;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The metadata store's contract, projection included, on a real PostgreSQL database: the compliance
 * suite of every part of the SPI, on one database emptied before each test.
 */
class PostgresMetadataStoreComplianceTest {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  private static Stores fresh() {
    Stores stores = PostgresStores.create(postgres.config().build(), Clock.systemUTC());
    postgres.database().truncateAll();
    return stores;
  }

  @Nested
  class Flows extends FlowStoreComplianceSuite {
    @Override
    protected Stores createStores() {
      return fresh();
    }
  }

  @Nested
  class Runs extends RunIndexComplianceSuite {
    @Override
    protected Stores createStores() {
      return fresh();
    }
  }

  @Nested
  class Signals extends SignalInboxComplianceSuite {
    @Override
    protected Stores createStores() {
      return fresh();
    }
  }

  @Nested
  class Health extends StoreHealthComplianceSuite {
    @Override
    protected Stores createStores() {
      return fresh();
    }
  }
}

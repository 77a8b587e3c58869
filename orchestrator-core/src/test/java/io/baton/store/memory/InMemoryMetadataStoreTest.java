package io.baton.store.memory;

import io.baton.store.FlowStoreComplianceSuite;
import io.baton.store.RunIndexComplianceSuite;
import io.baton.store.SignalInboxComplianceSuite;
import io.baton.store.StoreHealthComplianceSuite;
import io.baton.store.Stores;
import org.junit.jupiter.api.Nested;

/** The in-memory metadata store passes the compliance suite of every part of the SPI. */
class InMemoryMetadataStoreTest {
  private static Stores fresh() {
    return InMemoryStores.create();
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

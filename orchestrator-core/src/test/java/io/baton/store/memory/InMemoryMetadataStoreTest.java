package io.baton.store.memory;

import io.baton.store.MetadataStoreComplianceSuite;
import io.baton.store.Stores;
import java.time.Clock;

class InMemoryMetadataStoreTest extends MetadataStoreComplianceSuite {
  @Override
  protected Stores createStores() {
    return InMemoryStores.create(Clock.systemUTC());
  }
}

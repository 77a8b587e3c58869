package io.baton.store.memory;

import io.baton.store.AccessStoreComplianceSuite;
import io.baton.store.Stores;

class InMemoryAccessStoreComplianceTest extends AccessStoreComplianceSuite {
  @Override
  protected Stores createStores() {
    return InMemoryStores.create();
  }
}

package io.baton.store.memory;

import io.baton.store.EventStoreComplianceSuite;
import io.baton.store.Stores;

/** The in-memory event store passes the event store's compliance suite. */
class InMemoryEventStoreTest extends EventStoreComplianceSuite {
  @Override
  protected Stores createStores() {
    return InMemoryStores.create();
  }
}

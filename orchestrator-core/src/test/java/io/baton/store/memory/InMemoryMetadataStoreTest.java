package io.baton.store.memory;

import io.baton.store.MetadataStoreComplianceSuite;
import io.baton.store.Stores;

/** The in-memory metadata store passes the compliance suite of every part of the SPI. */
class InMemoryMetadataStoreTest extends MetadataStoreComplianceSuite {
  @Override
  protected Stores newStores() {
    return InMemoryStores.create();
  }
}

package io.baton.store.memory;

import io.baton.store.BlobStore;
import io.baton.store.BlobStoreComplianceSuite;

class InMemoryBlobStoreTest extends BlobStoreComplianceSuite {
  @Override
  protected BlobStore createBlobStore(int maxBytes) {
    return new InMemoryBlobStore(maxBytes);
  }
}

package io.baton.store;

import org.junit.jupiter.api.Test;

/**
 * The contract of {@link StoreHealth}. Every implementation's test extends this class and supplies
 * only its {@link Stores}.
 */
public abstract class StoreHealthComplianceSuite extends MetadataStoreComplianceBase {
  @Test
  void ping_answers_while_the_store_is_up() {
    metadata.ping();
  }
}

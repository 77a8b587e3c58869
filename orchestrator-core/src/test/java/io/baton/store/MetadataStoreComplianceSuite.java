package io.baton.store;

import org.junit.jupiter.api.Nested;

/**
 * Every part's compliance suite for one {@link MetadataStore} implementation: its test extends this
 * class and supplies only {@link #newStores()}; the parts run as nested classes (inherited, so no
 * implementation repeats them).
 */
public abstract class MetadataStoreComplianceSuite {
  /** Fresh stores for one test (an empty database, or one no other test writes to). */
  protected abstract Stores newStores() throws Exception;

  @Nested
  class Flows extends FlowStoreComplianceSuite {
    @Override
    protected Stores createStores() throws Exception {
      return newStores();
    }
  }

  @Nested
  class Runs extends RunIndexComplianceSuite {
    @Override
    protected Stores createStores() throws Exception {
      return newStores();
    }
  }

  @Nested
  class Listing extends RunListingComplianceSuite {
    @Override
    protected Stores createStores() throws Exception {
      return newStores();
    }
  }

  @Nested
  class Signals extends SignalInboxComplianceSuite {
    @Override
    protected Stores createStores() throws Exception {
      return newStores();
    }
  }

  @Nested
  class Health extends StoreHealthComplianceSuite {
    @Override
    protected Stores createStores() throws Exception {
      return newStores();
    }
  }

  @Nested
  class Retention extends RunRetentionComplianceSuite {
    @Override
    protected Stores createStores() throws Exception {
      return newStores();
    }
  }
}

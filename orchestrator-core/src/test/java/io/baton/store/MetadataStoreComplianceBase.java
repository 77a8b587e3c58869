package io.baton.store;

import io.baton.journal.ExecutionJournal;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the compliance suites of the {@link MetadataStore}'s parts share: fresh stores for each test
 * (whole {@link Stores}, because run rows are the journal's projection and the parts share
 * transactions), a writer of run trees, and unique names. An implementation's test extends each
 * suite and supplies only {@link #createStores()}.
 */
public abstract class MetadataStoreComplianceBase {
  protected static final Instant T0 = Instant.parse("2026-02-03T04:05:06.789012Z");

  protected Stores stores;
  protected MetadataStore metadata;
  protected ExecutionJournal journal;

  /** Fresh stores for one test (an empty database, or one no other test writes to). */
  protected abstract Stores createStores() throws Exception;

  @BeforeEach
  void openStores() throws Exception {
    stores = createStores();
    metadata = stores.metadata();
    journal = stores.journal();
  }

  @AfterEach
  void closeStores() throws Exception {
    stores.close();
  }

  protected RunWriter newRun() {
    return new RunWriter(journal, T0);
  }

  protected static String unique(String name) {
    return name + "-" + UUID.randomUUID();
  }
}

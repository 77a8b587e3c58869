package io.baton.store.postgres;

import io.baton.journal.ExecutionJournal;
import io.baton.journal.ExecutionJournalComplianceSuite;
import io.baton.store.postgres.testkit.PostgresFixture;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The journal's contract, on a real PostgreSQL database. Without the stubs of archived completions
 * ({@code JournalArchive.leaveCompletionStubs}) the suite's archive-boundary test fails.
 */
class PostgresJournalComplianceTest extends ExecutionJournalComplianceSuite {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  @Override
  protected ExecutionJournal createJournal() {
    ExecutionJournal journal = postgres.stores().journal();
    postgres.database().truncateAll();
    return journal;
  }
}

package io.baton.store.postgres;

import io.baton.journal.ExecutionJournal;
import io.baton.journal.ExecutionJournalComplianceSuite;
import io.baton.store.postgres.testkit.PostgresFixture;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The journal's contract, on a real PostgreSQL database. */
class PostgresJournalComplianceTest extends ExecutionJournalComplianceSuite {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  @Override
  protected ExecutionJournal createJournal() {
    ExecutionJournal journal = postgres.stores().journal();
    postgres.database().truncateAll();
    return journal;
  }
}

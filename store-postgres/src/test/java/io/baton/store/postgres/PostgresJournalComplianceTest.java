package io.baton.store.postgres;

import io.baton.journal.ExecutionJournal;
import io.baton.journal.ExecutionJournalComplianceSuite;
import io.baton.store.postgres.testkit.PostgresFixture;
import io.baton.testkit.InjectDefects;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The journal's contract, on a real PostgreSQL database. {@code
 * -Dbaton.defects=NO_ARCHIVED_COMPLETION_STUBS} shows the suite's archive-boundary test failing
 * without the stubs of archived completions.
 */
@ExtendWith(InjectDefects.class)
class PostgresJournalComplianceTest extends ExecutionJournalComplianceSuite {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  @Override
  protected ExecutionJournal createJournal() {
    ExecutionJournal journal = postgres.stores().journal();
    postgres.database().truncateAll();
    return journal;
  }
}

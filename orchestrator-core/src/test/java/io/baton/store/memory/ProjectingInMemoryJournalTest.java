package io.baton.store.memory;

import io.baton.journal.ExecutionJournal;
import io.baton.journal.ExecutionJournalComplianceSuite;

/** The journal that projects run rows is still a journal: it passes the journal's contract. */
class ProjectingInMemoryJournalTest extends ExecutionJournalComplianceSuite {
  @Override
  protected ExecutionJournal createJournal() {
    return InMemoryStores.create().journal();
  }
}

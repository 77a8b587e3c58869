package io.baton.journal.memory;

import io.baton.journal.ExecutionJournal;
import io.baton.journal.ExecutionJournalComplianceSuite;

class InMemoryJournalTest extends ExecutionJournalComplianceSuite {
  @Override
  protected ExecutionJournal createJournal() {
    return new InMemoryJournal();
  }
}

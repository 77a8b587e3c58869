package io.baton.gates.planted.core;

import io.baton.gates.planted.journal.JournalType;

/** Allowed: core depends on core. */
public final class CoreUsesJournal {
  public JournalType journal() {
    return new JournalType();
  }
}

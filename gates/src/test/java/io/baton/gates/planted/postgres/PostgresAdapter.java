package io.baton.gates.planted.postgres;

import io.baton.gates.planted.core.CoreUsesJournal;

/** Allowed: an adapter depends on core. */
public final class PostgresAdapter {
  public CoreUsesJournal core() {
    return new CoreUsesJournal();
  }
}

package io.baton.gates.planted.core;

import io.baton.gates.planted.postgres.PostgresAdapter;

/** Planted: core imports an adapter. */
public final class CoreImportsPostgres {
  public PostgresAdapter adapter() {
    return new PostgresAdapter();
  }
}

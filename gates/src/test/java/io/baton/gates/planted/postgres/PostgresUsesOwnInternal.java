package io.baton.gates.planted.postgres;

import io.baton.gates.planted.postgres.internal.PostgresInternal;

/** Allowed: a module uses its own internal package. */
public final class PostgresUsesOwnInternal {
  public PostgresInternal internal() {
    return new PostgresInternal();
  }
}

package io.baton.gates.planted.etcd;

import io.baton.gates.planted.postgres.internal.PostgresInternal;

/** Planted: a module uses another module's internal package. */
public final class EtcdUsesPostgresInternal {
  public PostgresInternal borrowed() {
    return new PostgresInternal();
  }
}

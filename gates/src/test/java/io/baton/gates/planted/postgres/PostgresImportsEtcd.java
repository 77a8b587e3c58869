package io.baton.gates.planted.postgres;

import io.baton.gates.planted.etcd.EtcdAdapter;

/** Planted: one adapter imports another. */
public final class PostgresImportsEtcd {
  public EtcdAdapter other() {
    return new EtcdAdapter();
  }
}

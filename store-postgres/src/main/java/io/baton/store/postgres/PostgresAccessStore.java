package io.baton.store.postgres;

import io.baton.store.AccessStore;
import io.baton.store.AuditEntry;
import io.baton.store.StoredKey;
import io.baton.store.postgres.internal.AccessRows;
import io.baton.store.postgres.internal.Database;
import java.util.List;
import java.util.Optional;

/**
 * The {@link AccessStore} on PostgreSQL: {@code api_keys} (unique names and hashes) and the
 * append-only {@code audit_log}. Shared by every node of the cluster, so a key revoked through one
 * node is revoked for all. Thread-safe.
 */
public final class PostgresAccessStore implements AccessStore {
  private final AccessRows rows;

  PostgresAccessStore(Database database) {
    this.rows = new AccessRows(database);
  }

  @Override
  public void createKey(StoredKey key, AuditEntry entry) {
    rows.createKey(key, entry);
  }

  @Override
  public List<StoredKey> keys() {
    return rows.keys();
  }

  @Override
  public Optional<StoredKey> findKey(String id) {
    return rows.findKey(id);
  }

  @Override
  public Optional<StoredKey> revokeKey(String id, AuditEntry entry) {
    return rows.revokeKey(id, entry);
  }

  @Override
  public AuditEntry record(AuditEntry entry) {
    return rows.record(entry);
  }

  @Override
  public List<AuditEntry> audit(long beforeSeq, int limit) {
    return rows.audit(beforeSeq, limit);
  }
}

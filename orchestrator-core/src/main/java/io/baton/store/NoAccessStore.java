package io.baton.store;

import java.util.List;
import java.util.Optional;

/**
 * The access store of stores built without one (engine tests): no keys, and refusing to store a key
 * or an audit entry, so that nothing a caller believes recorded is dropped.
 */
enum NoAccessStore implements AccessStore {
  INSTANCE;

  @Override
  public void createKey(StoredKey key, AuditEntry entry) {
    throw refused();
  }

  @Override
  public List<StoredKey> keys() {
    return List.of();
  }

  @Override
  public Optional<StoredKey> findKey(String id) {
    return Optional.empty();
  }

  @Override
  public Optional<StoredKey> revokeKey(String id, AuditEntry entry) {
    return Optional.empty();
  }

  @Override
  public AuditEntry record(AuditEntry entry) {
    throw refused();
  }

  @Override
  public List<AuditEntry> audit(long beforeSeq, int limit) {
    return List.of();
  }

  private static StoreException refused() {
    return new StoreException("these stores keep no API keys or audit record", null, null);
  }
}

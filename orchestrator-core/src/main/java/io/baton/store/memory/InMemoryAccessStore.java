package io.baton.store.memory;

import io.baton.store.AccessStore;
import io.baton.store.AuditEntry;
import io.baton.store.KeyNameTakenException;
import io.baton.store.StoredKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link AccessStore} in memory: keys and audit entries live as long as the process (the store
 * of {@code baton dev} and of tests). Thread-safe: every call holds the store's lock.
 */
public final class InMemoryAccessStore implements AccessStore {
  private final Map<String, StoredKey> keys = new LinkedHashMap<>();
  private final List<AuditEntry> audit = new ArrayList<>();

  @Override
  public synchronized void createKey(StoredKey key, AuditEntry entry) {
    if (keys.containsKey(key.id())) {
      throw new KeyNameTakenException("a key with id '" + key.id() + "' exists");
    }
    for (StoredKey stored : keys.values()) {
      if (stored.name().equals(key.name())) {
        throw new KeyNameTakenException("a key named '" + key.name() + "' exists");
      }
      if (stored.hash().equals(key.hash())) {
        throw new KeyNameTakenException("a key with the token of '" + stored.name() + "' exists");
      }
    }
    keys.put(key.id(), key);
    record(entry);
  }

  @Override
  public synchronized List<StoredKey> keys() {
    return List.copyOf(keys.values());
  }

  @Override
  public synchronized Optional<StoredKey> findKey(String id) {
    return Optional.ofNullable(keys.get(id));
  }

  @Override
  public synchronized Optional<StoredKey> revokeKey(String id, AuditEntry entry) {
    StoredKey key = keys.get(id);
    if (key == null) {
      return Optional.empty();
    }
    if (!key.revoked()) {
      key = key.revokedAt(entry.at());
      keys.put(id, key);
      record(entry);
    }
    return Optional.of(key);
  }

  @Override
  public synchronized AuditEntry record(AuditEntry entry) {
    AuditEntry recorded = entry.withSeq(audit.size() + 1L);
    audit.add(recorded);
    return recorded;
  }

  @Override
  public synchronized List<AuditEntry> audit(long beforeSeq, int limit) {
    List<AuditEntry> page = new ArrayList<>();
    for (int i = audit.size() - 1; i >= 0 && page.size() < limit; i--) {
      if (audit.get(i).seq() < beforeSeq) {
        page.add(audit.get(i));
      }
    }
    return page;
  }
}

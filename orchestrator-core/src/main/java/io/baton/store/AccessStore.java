package io.baton.store;

import java.util.List;
import java.util.Optional;

/**
 * API keys that admins create through the API, and the audit record of who changed what (flow
 * uploads, key changes). A key is stored only as the hash of its token; its name is unique among
 * stored keys, and so is its hash. A revoked key stays stored (the record says it existed) with the
 * time it was revoked. Audit entries are append-only and numbered in the order they were recorded.
 * Implementations are thread-safe and pass {@code AccessStoreComplianceSuite}.
 */
public interface AccessStore {

  /**
   * Stores a new key and records {@code entry} (who created it, why) in the audit record, in one
   * transaction: the key exists exactly when its entry does.
   *
   * @throws KeyNameTakenException a stored key (revoked or not) already has its name, id or hash;
   *     nothing is stored or recorded
   */
  void createKey(StoredKey key, AuditEntry entry);

  /** Every stored key, revoked ones included, oldest first. */
  List<StoredKey> keys();

  Optional<StoredKey> findKey(String id);

  /**
   * Marks a key revoked at {@code entry.at()} and records {@code entry}, in one transaction; a key
   * revoked before keeps its first time, and then nothing is recorded.
   *
   * @return the key as stored afterwards, or empty when no key has that id
   */
  Optional<StoredKey> revokeKey(String id, AuditEntry entry);

  /** Appends an entry; returns it with its sequence number. */
  AuditEntry record(AuditEntry entry);

  /**
   * Audit entries newest first: those with a sequence number below {@code beforeSeq} (every entry
   * when it is {@link Long#MAX_VALUE}), at most {@code limit}.
   */
  List<AuditEntry> audit(long beforeSeq, int limit);
}

package io.baton.store.postgres.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.baton.store.AuditEntry;
import io.baton.store.KeyNameTakenException;
import io.baton.store.StoredKey;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * The {@code api_keys} and {@code audit_log} tables. A key is inserted with {@code ON CONFLICT DO
 * NOTHING}, so two admins creating one name at once get one key and one refusal; a revocation sets
 * {@code revoked_at} only where it is null, so the first time stays. Thread-safe.
 */
public final class AccessRows {
  private static final String KEY_COLUMNS =
      "id, name, role, hash, flows::text AS flows, expires_at, created_at, created_by, revoked_at";
  private static final String AUDIT_COLUMNS =
      "seq, at, action, target, by_name, via, reason, detail";

  private final Database database;

  public AccessRows(Database database) {
    this.database = database;
  }

  public void createKey(StoredKey key, AuditEntry entry) {
    boolean inserted =
        database.inTransaction(
            "store API key " + key.name(),
            handle -> {
              int rows =
                  handle
                      .createUpdate(
                          "INSERT INTO api_keys (id, name, role, hash, flows, expires_at,"
                              + " created_at, created_by, revoked_at) VALUES (:id, :name, :role,"
                              + " :hash, CAST(:flows AS jsonb), :expires, :created, :by, :revoked)"
                              + " ON CONFLICT DO NOTHING")
                      .bind("id", key.id())
                      .bind("name", key.name())
                      .bind("role", key.role())
                      .bind("hash", key.hash())
                      .bind("flows", Sql.json(flows(key.flows())))
                      .bind("expires", Sql.timestamp(key.expires()))
                      .bind("created", Sql.timestamp(key.createdAt()))
                      .bind("by", key.createdBy())
                      .bind("revoked", Sql.timestamp(key.revokedAt()))
                      .execute();
              if (rows == 0) {
                return false;
              }
              record(handle, entry);
              return true;
            });
    if (!inserted) {
      throw new KeyNameTakenException(
          "a key named '" + key.name() + "' (or with its id or token) exists");
    }
  }

  public List<StoredKey> keys() {
    return database.withHandle(
        "list API keys",
        handle ->
            handle
                .createQuery("SELECT " + KEY_COLUMNS + " FROM api_keys ORDER BY seq")
                .map((rs, ctx) -> key(rs))
                .list());
  }

  public Optional<StoredKey> findKey(String id) {
    return database.withHandle("find API key " + id, handle -> findKey(handle, id));
  }

  private static Optional<StoredKey> findKey(Handle handle, String id) {
    return handle
        .createQuery("SELECT " + KEY_COLUMNS + " FROM api_keys WHERE id = :id")
        .bind("id", id)
        .map((rs, ctx) -> key(rs))
        .findOne();
  }

  public Optional<StoredKey> revokeKey(String id, AuditEntry entry) {
    return database.inTransaction(
        "revoke API key " + id,
        handle -> {
          int revoked =
              handle
                  .createUpdate(
                      "UPDATE api_keys SET revoked_at = :at WHERE id = :id AND revoked_at IS NULL")
                  .bind("at", Sql.timestamp(entry.at()))
                  .bind("id", id)
                  .execute();
          if (revoked > 0) {
            record(handle, entry);
          }
          return findKey(handle, id);
        });
  }

  public AuditEntry record(AuditEntry entry) {
    return database.withHandle(
        "record " + entry.action() + " of " + entry.target() + " in the audit log",
        handle -> record(handle, entry));
  }

  private static AuditEntry record(Handle handle, AuditEntry entry) {
    long seq =
        handle
            .createQuery(
                "INSERT INTO audit_log (at, action, target, by_name, via, reason, detail)"
                    + " VALUES (:at, :action, :target, :by, :via, :reason, :detail)"
                    + " RETURNING seq")
            .bind("at", Sql.timestamp(entry.at()))
            .bind("action", entry.action())
            .bind("target", entry.target())
            .bind("by", entry.by())
            .bind("via", entry.via())
            .bind("reason", entry.reason())
            .bind("detail", entry.detail())
            .mapTo(Long.class)
            .one();
    return entry.withSeq(seq);
  }

  public List<AuditEntry> audit(long beforeSeq, int limit) {
    return database.withHandle(
        "read the audit log",
        handle ->
            handle
                .createQuery(
                    "SELECT "
                        + AUDIT_COLUMNS
                        + " FROM audit_log WHERE seq < :before ORDER BY seq DESC LIMIT :limit")
                .bind("before", beforeSeq)
                .bind("limit", limit)
                .map((rs, ctx) -> audit(rs))
                .list());
  }

  private static JsonNode flows(List<String> flows) {
    ArrayNode array = JsonNodeFactory.instance.arrayNode();
    flows.forEach(array::add);
    return array;
  }

  private static StoredKey key(ResultSet rs) throws SQLException {
    List<String> flows = new ArrayList<>();
    Sql.json(rs.getString("flows")).forEach(flow -> flows.add(flow.asText()));
    return new StoredKey(
        rs.getString("id"),
        rs.getString("name"),
        rs.getString("role"),
        rs.getString("hash"),
        flows,
        Sql.instant(rs, "expires_at"),
        Sql.instant(rs, "created_at"),
        rs.getString("created_by"),
        Sql.instant(rs, "revoked_at"));
  }

  private static AuditEntry audit(ResultSet rs) throws SQLException {
    return new AuditEntry(
        rs.getLong("seq"),
        Sql.instant(rs, "at"),
        rs.getString("action"),
        rs.getString("target"),
        rs.getString("by_name"),
        rs.getString("via"),
        rs.getString("reason"),
        rs.getString("detail"));
  }
}

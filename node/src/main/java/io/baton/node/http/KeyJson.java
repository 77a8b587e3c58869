package io.baton.node.http;

import io.baton.node.auth.ApiKey;
import io.baton.store.StoredKey;
import java.time.Instant;
import java.util.List;

/**
 * An API key in {@code GET /api/v1/keys}: never its token or hash. {@code source} is {@code api}
 * (created through the API: revocable there, by {@code id}) or {@code file} (the keys file's:
 * changed in the file); its status says whether it works now, and if not, why (past its expiry, or
 * revoked).
 */
record KeyJson(
    String id,
    String name,
    String role,
    List<String> flows,
    Instant expires,
    Instant createdAt,
    String createdBy,
    Instant revokedAt,
    String source,
    String status) {
  static final String FILE_ID_PREFIX = "file:";

  static KeyJson of(StoredKey key, Instant now) {
    return new KeyJson(
        key.id(),
        key.name(),
        key.role(),
        key.flows(),
        key.expires(),
        key.createdAt(),
        key.createdBy(),
        key.revokedAt(),
        "api",
        status(key.revoked(), key.expires(), now));
  }

  static KeyJson of(ApiKey key, Instant now) {
    return new KeyJson(
        FILE_ID_PREFIX + key.name(),
        key.name(),
        key.role().displayName(),
        key.flows().patterns(),
        key.expires(),
        null,
        null,
        null,
        "file",
        status(key.revoked(), key.expires(), now));
  }

  private static String status(boolean revoked, Instant expires, Instant now) {
    if (revoked) {
      return "revoked";
    }
    return expires != null && !now.isBefore(expires) ? "expired" : "active";
  }
}

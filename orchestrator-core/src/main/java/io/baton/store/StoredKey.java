package io.baton.store;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * An API key as the store holds it: never its token, only the token's hash.
 *
 * @param id a stable identifier, used to revoke it (not secret)
 * @param name unique among stored keys; who acted, in the journal and the audit record
 * @param role the role's name ({@code viewer}, {@code operator}, ...)
 * @param hash the token's hash ({@code sha256:<hex>})
 * @param flows the flow-name patterns it is limited to; empty for every flow
 * @param expires when it stops working, or null for never
 * @param createdAt when it was created
 * @param createdBy who created it
 * @param revokedAt when it was revoked, or null while it is not
 */
public record StoredKey(
    String id,
    String name,
    String role,
    String hash,
    List<String> flows,
    Instant expires,
    Instant createdAt,
    String createdBy,
    Instant revokedAt) {
  public StoredKey {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(hash, "hash");
    flows = flows == null ? List.of() : List.copyOf(flows);
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(createdBy, "createdBy");
  }

  public boolean revoked() {
    return revokedAt != null;
  }

  /** This key, revoked at {@code at}. */
  public StoredKey revokedAt(Instant at) {
    return new StoredKey(id, name, role, hash, flows, expires, createdAt, createdBy, at);
  }
}

package io.baton.node.auth;

import io.baton.store.KeyNameTakenException;
import io.baton.store.StoredKey;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * Creating, listing and revoking the API keys admins manage through the API. A created key's token
 * is returned once and never stored (only its hash); names are unique across the keys file and the
 * store. Every creation and revocation is recorded in the audit record in the same transaction, and
 * this node stops accepting a revoked key at once (the others within {@link StoredKeys#REFRESH}).
 * Thread-safe.
 */
public final class KeyAdministration {
  /** What {@code baton keys create} and the API accept as a key's name. */
  public static final String NAME_PATTERN = "[A-Za-z0-9][A-Za-z0-9._@-]{0,99}";

  /** A new key and its token, which is never shown again. */
  public record Created(StoredKey key, String token) {}

  private final StoredKeys stored;
  private final Authenticator authenticator;
  private final AuditTrail audit;
  private final Clock clock;

  public KeyAdministration(
      StoredKeys stored, Authenticator authenticator, AuditTrail audit, Clock clock) {
    this.stored = stored;
    this.authenticator = authenticator;
    this.audit = audit;
    this.clock = clock;
  }

  /**
   * Creates a key.
   *
   * @param expires when it stops working, or null for never
   * @throws KeyNameTakenException a key of the file or the store has that name
   * @throws IllegalArgumentException the name is not a valid name, or it expires in the past
   */
  public Created create(
      String name, Role role, List<String> flows, Instant expires, Principal by, String reason) {
    if (!name.matches(NAME_PATTERN)) {
      throw new IllegalArgumentException(
          "name '"
              + name
              + "': use letters, digits, '.', '_', '@' and '-' (at most 100, starting with a"
              + " letter or digit)");
    }
    Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
    if (expires != null && !expires.isAfter(now)) {
      throw new IllegalArgumentException("expires " + expires + " is not in the future");
    }
    if (authenticator.fileKeys().stream().anyMatch(key -> key.name().equals(name))) {
      throw new KeyNameTakenException("a key named '" + name + "' exists in the keys file");
    }
    String token = ApiTokens.generate();
    StoredKey key =
        new StoredKey(
            ApiTokens.keyId(),
            name,
            role.displayName(),
            ApiTokens.hash(token),
            flows,
            expires,
            now,
            by.name(),
            null);
    stored.store().createKey(key, audit.entry(by, "key.create", key.id(), reason, describe(key)));
    stored.invalidate();
    return new Created(key, token);
  }

  /** The stored keys, revoked ones included, oldest first. */
  public List<StoredKey> storedKeys() {
    return stored.store().keys();
  }

  /** The keys of the keys file (not revocable here: they are the file's). */
  public List<ApiKey> fileKeys() {
    return authenticator.fileKeys();
  }

  /**
   * Revokes a stored key; a second revocation changes and records nothing.
   *
   * @return the key as stored afterwards, or empty when no stored key has that id
   */
  public Optional<StoredKey> revoke(String id, Principal by, String reason) {
    Optional<StoredKey> revoked =
        stored.store().revokeKey(id, audit.entry(by, "key.revoke", id, reason, null));
    stored.invalidate();
    return revoked;
  }

  private static String describe(StoredKey key) {
    return "name="
        + key.name()
        + " role="
        + key.role()
        + (key.flows().isEmpty() ? "" : " flows=" + String.join(",", key.flows()))
        + (key.expires() == null ? "" : " expires=" + key.expires());
  }
}

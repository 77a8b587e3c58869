package io.baton.node.auth;

import java.time.Instant;
import java.util.Objects;

/**
 * One API key as the keys file or the store holds it: never the token, only its SHA-256 hash.
 *
 * @param expires when it stops working, or null for never
 * @param revoked a revoked key stays listed (so the record says it existed) and never works
 */
public record ApiKey(
    String name, Role role, String hash, FlowPatterns flows, Instant expires, boolean revoked) {
  public ApiKey {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(flows, "flows");
  }

  public Principal principal() {
    return new Principal(name, role, flows, AuthMethod.KEY);
  }

  /**
   * Its principal, if the key works at {@code now}.
   *
   * @throws AuthenticationFailedException it was revoked or has expired; the message says which
   */
  Principal verify(Instant now) {
    if (revoked) {
      throw new AuthenticationFailedException("The API key '" + name + "' was revoked");
    }
    if (expires != null && !now.isBefore(expires)) {
      throw new AuthenticationFailedException("The API key '" + name + "' expired at " + expires);
    }
    return principal();
  }
}

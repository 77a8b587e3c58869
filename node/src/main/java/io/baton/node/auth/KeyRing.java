package io.baton.node.auth;

import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * API keys from two places: the keys file (an operator's, and the first admin's) and the store (the
 * keys admins create through the API). The file is asked first; a token neither knows is refused.
 * Thread-safe.
 */
final class KeyRing implements Authenticator {
  private final ApiKeys file;
  private final StoredKeys stored;
  private final Clock clock;

  KeyRing(ApiKeys file, StoredKeys stored, Clock clock) {
    this.file = file;
    this.stored = stored;
    this.clock = clock;
  }

  @Override
  public Principal authenticate(String bearerToken) {
    if (bearerToken == null || bearerToken.isBlank()) {
      throw new AuthenticationFailedException(
          "This call needs an API key: send 'Authorization: Bearer <token>'");
    }
    String hash = ApiTokens.hash(bearerToken.trim());
    Optional<ApiKey> key = file.find(hash);
    if (key.isEmpty()) {
      key = stored.find(hash);
    }
    return key.orElseThrow(
            () -> new AuthenticationFailedException("The API key is not known to this node"))
        .verify(clock.instant());
  }

  @Override
  public List<ApiKey> fileKeys() {
    return file.keys();
  }
}

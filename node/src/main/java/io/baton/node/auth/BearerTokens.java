package io.baton.node.auth;

import java.util.List;

/**
 * API keys and OIDC/JWT tokens on one node: a bearer token that is a JWT goes to the OIDC verifier,
 * any other to the keys. Thread-safe.
 */
public final class BearerTokens implements Authenticator {
  private final Authenticator keys;
  private final OidcTokens oidc;

  public BearerTokens(Authenticator keys, OidcTokens oidc) {
    this.keys = keys;
    this.oidc = oidc;
  }

  @Override
  public Principal authenticate(String bearerToken) {
    return OidcTokens.looksLikeJwt(bearerToken)
        ? oidc.authenticate(bearerToken)
        : keys.authenticate(bearerToken);
  }

  @Override
  public Authenticator withStoredKeys(StoredKeys stored) {
    return new BearerTokens(keys.withStoredKeys(stored), oidc);
  }

  @Override
  public List<ApiKey> fileKeys() {
    return keys.fileKeys();
  }
}

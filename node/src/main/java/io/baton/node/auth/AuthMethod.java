package io.baton.node.auth;

import java.util.Locale;

/** How a principal proved who it is; journaled beside its name with every command. */
public enum AuthMethod {
  /** An API key (a bearer token whose hash is in the keys file). */
  KEY,
  /** An OIDC/JWT bearer token of the configured issuer, verified against its JWKS. */
  OIDC,
  /** Authentication is off ({@code auth.mode: none}): everyone is the anonymous admin. */
  NONE;

  public String displayName() {
    return name().toLowerCase(Locale.ROOT);
  }
}

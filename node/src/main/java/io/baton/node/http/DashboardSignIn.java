package io.baton.node.http;

import java.util.Objects;

/**
 * The dashboard's sign-in with the organisation's identity provider: the issuer (whose discovery
 * document names its authorization and token endpoints), the dashboard's client id there (a public
 * client: no secret, PKCE instead) and the scope it asks for. Immutable.
 */
public record DashboardSignIn(String issuer, String clientId, String scope) {
  public static final String DEFAULT_SCOPE = "openid";

  public DashboardSignIn {
    Objects.requireNonNull(issuer, "issuer");
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(scope, "scope");
  }
}

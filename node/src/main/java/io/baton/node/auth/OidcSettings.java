package io.baton.node.auth;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * How a node verifies OIDC/JWT bearer tokens: the issuer ({@code iss}) and audience ({@code aud}) a
 * token must name, where the issuer's signing keys are (its JWKS), the claim that holds the
 * caller's role ({@code viewer} ... {@code admin}; a string or a list, the highest known role wins)
 * and the claim that names the caller. Immutable.
 *
 * @param jwksUrl where the issuer's keys are; null to find them through the issuer's discovery
 *     document ({@code <issuer>/.well-known/openid-configuration}, its {@code jwks_uri})
 * @param jwksCacheTtl how long fetched keys are used before they are fetched again
 * @param jwksMinRefresh the least time between two fetches of the keys (a token signed with a key
 *     the node does not know makes it fetch them again, at most this often)
 */
public record OidcSettings(
    String issuer,
    String audience,
    URI jwksUrl,
    String roleClaim,
    String nameClaim,
    Duration jwksCacheTtl,
    Duration jwksMinRefresh) {
  public static final String DEFAULT_ROLE_CLAIM = "roles";
  public static final String DEFAULT_NAME_CLAIM = "sub";
  public static final Duration DEFAULT_JWKS_CACHE_TTL = Duration.ofMinutes(5);
  public static final Duration DEFAULT_JWKS_MIN_REFRESH = Duration.ofSeconds(10);

  public OidcSettings {
    Objects.requireNonNull(issuer, "issuer");
    Objects.requireNonNull(audience, "audience");
    Objects.requireNonNull(roleClaim, "roleClaim");
    Objects.requireNonNull(nameClaim, "nameClaim");
    Objects.requireNonNull(jwksCacheTtl, "jwksCacheTtl");
    Objects.requireNonNull(jwksMinRefresh, "jwksMinRefresh");
  }

  /** The issuer's OpenID Connect discovery document, where its keys are found without a jwksUrl. */
  public URI discoveryUrl() {
    return DiscoveredJwks.discoveryUrl(issuer);
  }

  /** Settings with the default claims and key caching. */
  public static OidcSettings of(String issuer, String audience, URI jwksUrl) {
    return new OidcSettings(
        issuer,
        audience,
        jwksUrl,
        DEFAULT_ROLE_CLAIM,
        DEFAULT_NAME_CLAIM,
        DEFAULT_JWKS_CACHE_TTL,
        DEFAULT_JWKS_MIN_REFRESH);
  }

  public OidcSettings withJwksMinRefresh(Duration minRefresh) {
    return new OidcSettings(
        issuer, audience, jwksUrl, roleClaim, nameClaim, jwksCacheTtl, minRefresh);
  }
}

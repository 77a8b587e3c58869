package io.baton.node.auth;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * How a node verifies OIDC/JWT bearer tokens: the issuer ({@code iss}) and audience ({@code aud}) a
 * token must name, where the issuer's signing keys are (its JWKS), the claim that holds the
 * caller's role ({@code viewer} ... {@code admin}; a string or a list, the highest known role
 * wins), the claim that names the caller and, optionally, the claim that limits the caller to
 * flow-name patterns. Immutable.
 *
 * @param jwksUrl where the issuer's keys are; null to find them through the issuer's discovery
 *     document ({@code <issuer>/.well-known/openid-configuration}, its {@code jwks_uri})
 * @param flowsClaim the claim holding the flow-name patterns a token may act on (a list, or one
 *     string of patterns separated by spaces or commas, as a {@code scope} is); null: tokens act on
 *     every flow their role allows. When set, a token without patterns in it is refused.
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
    String flowsClaim,
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
        null,
        DEFAULT_JWKS_CACHE_TTL,
        DEFAULT_JWKS_MIN_REFRESH);
  }

  public OidcSettings withJwksMinRefresh(Duration minRefresh) {
    return new OidcSettings(
        issuer, audience, jwksUrl, roleClaim, nameClaim, flowsClaim, jwksCacheTtl, minRefresh);
  }

  /** These settings, limiting each token to the flow-name patterns in {@code claim}. */
  public OidcSettings withFlowsClaim(String claim) {
    return new OidcSettings(
        issuer, audience, jwksUrl, roleClaim, nameClaim, claim, jwksCacheTtl, jwksMinRefresh);
  }
}

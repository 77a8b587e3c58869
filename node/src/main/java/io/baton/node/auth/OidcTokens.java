package io.baton.node.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.JWKSetBasedJWKSource;
import com.nimbusds.jose.jwk.source.JWKSetCacheRefreshEvaluator;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.BadJWSException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.net.MalformedURLException;
import java.net.URI;
import java.text.ParseException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Verifies OIDC/JWT bearer tokens against the issuer's JWKS (at {@link OidcSettings#jwksUrl()}, or
 * where the issuer's discovery document says when that is not given): the signature (RS256/384/512,
 * ES256/384/512, PS256/384/512, with a key the JWKS holds), the issuer, the audience and the expiry
 * (against the node's clock, one minute of skew). Keys are cached and fetched again when a token
 * names a key id the cache lacks (the issuer rotated its keys), or when the signature fails under a
 * key id the cache holds (an issuer that put a new key under the same id), at most every {@link
 * OidcSettings#jwksMinRefresh()}. The caller's role comes from {@link OidcSettings#roleClaim()}; a
 * token without a known role is refused. With {@link OidcSettings#flowsClaim()} set, the caller is
 * limited to the flow-name patterns of that claim, checked as an API key's are; a token without
 * patterns there is refused rather than let act on every flow. Thread-safe.
 */
public final class OidcTokens implements Authenticator {
  private static final Set<JWSAlgorithm> ALGORITHMS =
      Set.of(
          JWSAlgorithm.RS256,
          JWSAlgorithm.RS384,
          JWSAlgorithm.RS512,
          JWSAlgorithm.ES256,
          JWSAlgorithm.ES384,
          JWSAlgorithm.ES512,
          JWSAlgorithm.PS256,
          JWSAlgorithm.PS384,
          JWSAlgorithm.PS512);

  private final OidcSettings settings;
  private final DiscoveredJwks discovered; // null when auth.oidc.jwksUrl says where the keys are
  private final JWKSource<SecurityContext> keys;
  private final Clock clock;
  private final DefaultJWTProcessor<SecurityContext> processor;

  public OidcTokens(OidcSettings settings, Clock clock) {
    this.settings = settings;
    this.clock = clock;
    if (settings.jwksUrl() != null) {
      keys = jwks(settings, settings.jwksUrl());
      discovered = null;
    } else {
      discovered = new DiscoveredJwks(settings, clock, url -> jwks(settings, url));
      keys = discovered;
    }
    this.processor = new DefaultJWTProcessor<>();
    processor.setJWSKeySelector(new JWSVerificationKeySelector<>(ALGORITHMS, keys));
    // Mutable sets: the verifier asks them whether they contain null, which Set.of answers with a
    // NullPointerException.
    processor.setJWTClaimsSetVerifier(
        new DefaultJWTClaimsVerifier<>(
            new HashSet<>(List.of(settings.audience())),
            new JWTClaimsSet.Builder().issuer(settings.issuer()).build(),
            new HashSet<>(List.of("exp", settings.nameClaim())),
            new HashSet<>()) {
          @Override
          protected Date currentTime() {
            return Date.from(clock.instant());
          }
        });
  }

  /** The JWKS at {@code url}, cached and rate-limited as the settings say. */
  private static JWKSource<SecurityContext> jwks(OidcSettings settings, URI url) {
    try {
      return JWKSourceBuilder.<SecurityContext>create(url.toURL())
          .cache(settings.jwksCacheTtl().toMillis(), JWKSourceBuilder.DEFAULT_CACHE_REFRESH_TIMEOUT)
          .rateLimited(settings.jwksMinRefresh().toMillis())
          .retrying(false)
          .refreshAheadCache(false)
          .build();
    } catch (MalformedURLException | IllegalArgumentException e) {
      throw new IllegalArgumentException("JWKS URL " + url + ": " + e.getMessage());
    }
  }

  /** Whether a bearer token is a JWT (three base64url parts) rather than an API key. */
  public static boolean looksLikeJwt(String token) {
    return token != null
        && token.startsWith("ey")
        && token.chars().filter(c -> c == '.').count() == 2;
  }

  @Override
  public Principal authenticate(String bearerToken) {
    if (bearerToken == null || bearerToken.isBlank()) {
      throw new AuthenticationFailedException(
          "This call needs a token: send 'Authorization: Bearer <token>'");
    }
    JWTClaimsSet claims;
    try {
      claims = verify(bearerToken.trim());
    } catch (ParseException e) {
      throw refused("it is not a JWT (" + e.getMessage() + ")");
    } catch (DiscoveredJwks.DiscoveryFailedException e) {
      throw refused(e.getMessage());
    } catch (RateLimitReachedException e) {
      // fetched within jwksMinRefresh (for another token): the keys held are the issuer's keys
      throw refused(
          "it is not signed by a key of the issuer's JWKS (no key matches, and the keys were"
              + " fetched less than "
              + settings.jwksMinRefresh().toSeconds()
              + " s ago)");
    } catch (KeySourceException e) {
      throw refused(
          "the issuer's keys could not be fetched from "
              + (discovered == null ? settings.jwksUrl() : discovered.location())
              + ": "
              + e.getMessage());
    } catch (BadJOSEException e) {
      throw refused(reason(e));
    } catch (JOSEException e) {
      throw refused("its signature could not be checked: " + e.getMessage());
    }
    String name = text(claims, settings.nameClaim());
    return new Principal(name, role(claims, name), flows(claims, name), AuthMethod.OIDC);
  }

  /**
   * The token's claims once verified. A signature that fails under a key id the cached keys hold
   * may be the issuer's new key under the same id: the keys are fetched again (at most every
   * jwksMinRefresh) and the token checked once more.
   */
  private JWTClaimsSet verify(String token) throws ParseException, BadJOSEException, JOSEException {
    try {
      return processor.process(token, null);
    } catch (BadJWSException e) {
      if (String.valueOf(e.getMessage()).contains("Invalid signature") && fetchKeysAgain()) {
        return processor.process(token, null);
      }
      throw e;
    }
  }

  /** Fetches the issuer's keys again now; false when fetched within jwksMinRefresh, or failed. */
  private boolean fetchKeysAgain() {
    JWKSource<SecurityContext> source = discovered == null ? keys : discovered.found();
    if (!(source instanceof JWKSetBasedJWKSource<SecurityContext> cached)) {
      return false;
    }
    try {
      cached
          .getJWKSetSource()
          .getJWKSet(JWKSetCacheRefreshEvaluator.forceRefresh(), clock.millis(), null);
      return true;
    } catch (KeySourceException e) { // the rate limit, or the issuer unreachable: refused as is
      return false;
    }
  }

  private static String reason(BadJOSEException e) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    String lower = message.toLowerCase(Locale.ROOT);
    if (lower.contains("expired")) {
      return "it has expired (" + message + ")";
    }
    if (lower.contains("audience")) {
      return "it is not meant for this node, whose audience is another (" + message + ")";
    }
    if (lower.contains("iss claim")) {
      return "it is from another issuer (" + message + ")";
    }
    if (lower.contains("matching key") || lower.contains("invalid signature")) {
      return "it is not signed by a key of the issuer's JWKS (" + message + ")";
    }
    return message;
  }

  private Role role(JWTClaimsSet claims, String name) {
    Object value = claims.getClaim(settings.roleClaim());
    List<String> names = new ArrayList<>();
    if (value instanceof String single) {
      names.add(single);
    } else if (value instanceof List<?> list) {
      list.forEach(item -> names.add(String.valueOf(item)));
    }
    Role highest = null;
    for (String roleName : names) {
      try {
        Role role = Role.parse(roleName);
        if (highest == null || role.compareTo(highest) > 0) {
          highest = role;
        }
      } catch (IllegalArgumentException e) {
        // another application's role: not Baton's
      }
    }
    if (highest == null) {
      throw refused(
          "'"
              + name
              + "' has no Baton role in claim '"
              + settings.roleClaim()
              + "' (one of viewer, operator, developer, admin)");
    }
    return highest;
  }

  /**
   * The flow patterns of the flows claim: a list of strings, or one string of patterns separated by
   * spaces or commas (how providers that cannot emit lists write a scope-like claim).
   */
  private FlowPatterns flows(JWTClaimsSet claims, String name) {
    String claim = settings.flowsClaim();
    if (claim == null) {
      return FlowPatterns.ANY;
    }
    Object value = claims.getClaim(claim);
    List<String> patterns = new ArrayList<>();
    if (value instanceof String text) {
      patterns.addAll(List.of(text.trim().split("[\\s,]+")));
    } else if (value instanceof List<?> list) {
      for (Object item : list) {
        if (!(item instanceof String pattern)) {
          throw refused(
              "claim '"
                  + claim
                  + "' of '"
                  + name
                  + "' holds "
                  + item
                  + ", not a flow-name pattern");
        }
        patterns.add(pattern.trim());
      }
    } else if (value != null) {
      throw refused(
          "claim '"
              + claim
              + "' of '"
              + name
              + "' is neither a list nor a string of flow patterns");
    }
    patterns.removeIf(String::isEmpty);
    if (patterns.isEmpty()) {
      throw refused(
          "'"
              + name
              + "' has no flow patterns in claim '"
              + claim
              + "' (such as [\"billing-*\"], or [\"*\"] for every flow)");
    }
    // "*" matches every flow: a token carrying it is not limited (it may also read the cluster)
    return patterns.contains("*") ? FlowPatterns.ANY : FlowPatterns.of(patterns);
  }

  private static String text(JWTClaimsSet claims, String claim) {
    Object value = claims.getClaim(claim);
    return value == null ? "" : String.valueOf(value);
  }

  private static AuthenticationFailedException refused(String why) {
    return new AuthenticationFailedException("The bearer token was refused: " + why);
  }
}

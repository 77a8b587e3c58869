package io.baton.node.auth;

import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.JSONObjectUtils;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The issuer's signing keys, found through its OpenID Connect discovery document ({@code
 * <issuer>/.well-known/openid-configuration}, whose {@code jwks_uri} says where the JWKS is). The
 * document is read when the first token is checked, not when the node starts, so an identity
 * provider that is down at start delays only OIDC callers; a failed read is tried again at most
 * every {@link OidcSettings#jwksMinRefresh()}, and until then tokens are refused with its reason. A
 * document that names another issuer is refused (OpenID Connect Discovery 1.0, section 4.3: whoever
 * serves it cannot vouch for keys of another issuer). Once found, the JWKS's address is kept for
 * the node's life; its keys are cached and refreshed as with {@code auth.oidc.jwksUrl}.
 * Thread-safe.
 */
final class DiscoveredJwks implements JWKSource<SecurityContext> {
  static final String WELL_KNOWN = "/.well-known/openid-configuration";
  private static final Logger log = LoggerFactory.getLogger(DiscoveredJwks.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final OidcSettings settings;
  private final URI document;
  private final Clock clock;
  private final Function<URI, JWKSource<SecurityContext>> jwks;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  private JWKSource<SecurityContext> keys; // guarded by this
  private URI jwksUri; // guarded by this
  private Instant lastAttempt; // guarded by this
  private String lastFailure; // guarded by this

  DiscoveredJwks(
      OidcSettings settings, Clock clock, Function<URI, JWKSource<SecurityContext>> jwks) {
    this.settings = settings;
    this.document = discoveryUrl(settings.issuer());
    this.clock = clock;
    this.jwks = jwks;
  }

  /** Where an issuer publishes its discovery document. */
  static URI discoveryUrl(String issuer) {
    String base = issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
    return URI.create(base + WELL_KNOWN);
  }

  URI document() {
    return document;
  }

  /** Where the JWKS was found, or the discovery document while it has not been read. */
  synchronized URI location() {
    return jwksUri != null ? jwksUri : document;
  }

  /** The keys of the JWKS the document named, or null while it has not been read. */
  synchronized JWKSource<SecurityContext> found() {
    return keys;
  }

  @Override
  public List<JWK> get(JWKSelector selector, SecurityContext context) throws KeySourceException {
    return keys().get(selector, context);
  }

  private synchronized JWKSource<SecurityContext> keys() throws KeySourceException {
    if (keys != null) {
      return keys;
    }
    Instant now = clock.instant();
    if (lastAttempt != null && now.isBefore(lastAttempt.plus(settings.jwksMinRefresh()))) {
      throw new DiscoveryFailedException(lastFailure);
    }
    lastAttempt = now;
    try {
      URI found = read();
      keys = jwks.apply(found);
      jwksUri = found;
      log.info(
          "OIDC issuer {} publishes its keys at {} (from {})", settings.issuer(), found, document);
      return keys;
    } catch (IOException | ParseException | IllegalArgumentException e) {
      lastFailure =
          "the issuer's discovery document "
              + document
              + " could not be used: "
              + (e.getMessage() == null ? e.toString() : e.getMessage());
      throw new DiscoveryFailedException(lastFailure);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DiscoveryFailedException(
          "interrupted while reading the issuer's discovery document " + document);
    }
  }

  private URI read() throws IOException, ParseException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(document).timeout(TIMEOUT).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("it answered HTTP " + response.statusCode());
    }
    Map<String, Object> json = JSONObjectUtils.parse(response.body());
    String issuer = JSONObjectUtils.getString(json, "issuer");
    if (!settings.issuer().equals(issuer)) {
      throw new IllegalArgumentException(
          "it names issuer '"
              + issuer
              + "', not '"
              + settings.issuer()
              + "' (auth.oidc.issuer must be exactly the issuer the document names)");
    }
    String uri = JSONObjectUtils.getString(json, "jwks_uri");
    if (uri == null || uri.isBlank()) {
      throw new IllegalArgumentException("it has no jwks_uri");
    }
    try {
      URI found = new URI(uri);
      if (!"https".equals(found.getScheme()) && !"http".equals(found.getScheme())) {
        throw new IllegalArgumentException("its jwks_uri " + uri + " is not an http(s) URL");
      }
      return found;
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("its jwks_uri is not a URL: " + e.getMessage(), e);
    }
  }

  /** The discovery document could not be read or used; the message says which and why. */
  static final class DiscoveryFailedException extends KeySourceException {
    private static final long serialVersionUID = 1L;

    DiscoveryFailedException(String message) {
      super(message);
    }
  }
}

package io.baton.node.http;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.baton.node.auth.ApiKeys;
import io.baton.node.auth.ApiTokens;
import io.baton.node.auth.Authenticator;
import io.baton.node.auth.BearerTokens;
import io.baton.node.auth.OidcSettings;
import io.baton.node.auth.OidcTokens;
import io.baton.time.SystemScheduler;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small OpenID Connect identity provider for tests, on a loopback HTTP server: realms that
 * publish a JWKS and a discovery document, RSA keys that sign tokens, and room for a test's own
 * endpoints (an authorization or token endpoint). Counts the requests of every path. Answers carry
 * {@code Access-Control-Allow-Origin: *} so that a dashboard in a browser may read them.
 * Thread-safe.
 */
final class TestIdentityProvider implements AutoCloseable {
  /** The audience the tests' nodes accept. */
  static final String AUDIENCE = "baton-api";

  private final HttpServer server;
  private final Map<String, String> documents = new ConcurrentHashMap<>();
  private final Map<String, HttpHandler> endpoints = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();

  private TestIdentityProvider(HttpServer server) {
    this.server = server;
  }

  /** Starts an identity provider that answers 404 to every path until told otherwise. */
  static TestIdentityProvider start() {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    TestIdentityProvider provider = new TestIdentityProvider(server);
    server.createContext("/", provider::answer);
    server.start();
    return provider;
  }

  /** A fresh 2048-bit RSA signing key with key id {@code kid}. */
  static RSAKey newKey(String kid) {
    try {
      return new RSAKeyGenerator(2048).keyID(kid).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code http://127.0.0.1:<port>} */
  String base() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The issuer of {@code realm}: {@code <base>/realms/<realm>}. */
  String issuer(String realm) {
    return base() + "/realms/" + realm;
  }

  /** Where {@code realm} publishes its keys. */
  URI jwksUrl(String realm) {
    return URI.create(issuer(realm) + "/protocol/openid-connect/certs");
  }

  /** Publishes the public halves of {@code keys} as {@code realm}'s JWKS; returns its issuer. */
  String publishKeys(String realm, RSAKey... keys) {
    publishKeysAt(jwksUrl(realm).getPath(), keys);
    return issuer(realm);
  }

  /** Publishes the public halves of {@code keys} as a JWKS at {@code path}. */
  void publishKeysAt(String path, RSAKey... keys) {
    List<JWK> published = List.of(keys).stream().map(key -> (JWK) key.toPublicJWK()).toList();
    documents.put(path, new JWKSet(published).toString(true));
  }

  /** Publishes {@code realm}'s keys and its own discovery document; returns its issuer. */
  String openRealm(String realm, RSAKey... keys) {
    publishKeys(realm, keys);
    publishDiscovery(realm, issuer(realm));
    return issuer(realm);
  }

  /**
   * Publishes {@code realm}'s discovery document, naming {@code issuerNamed} as its issuer (a
   * realm's own issuer, or another to impersonate it), its JWKS and its authorization and token
   * endpoints ({@code <issuer>/auth}, {@code <issuer>/token}).
   */
  void publishDiscovery(String realm, String issuerNamed) {
    String issuer = issuer(realm);
    documents.put(
        URI.create(issuer).getPath() + "/.well-known/openid-configuration",
        "{\"issuer\": \""
            + issuerNamed
            + "\", \"authorization_endpoint\": \""
            + issuer
            + "/auth\", \"token_endpoint\": \""
            + issuer
            + "/token\", \"jwks_uri\": \""
            + jwksUrl(realm)
            + "\"}");
  }

  /** Serves {@code handler} at exactly {@code path}, such as a realm's {@code /token}. */
  void handle(String path, HttpHandler handler) {
    endpoints.put(path, handler);
  }

  /** How many requests {@code path} has had. */
  int hits(String path) {
    return hits.getOrDefault(path, new AtomicInteger()).get();
  }

  /** Claims of a token of {@code issuer} for {@link #AUDIENCE}, valid for five minutes. */
  static JWTClaimsSet.Builder claims(String issuer, String subject, Object roles) {
    Instant now = Instant.now();
    return new JWTClaimsSet.Builder()
        .issuer(issuer)
        .audience(AUDIENCE)
        .subject(subject)
        .issueTime(Date.from(now))
        .expirationTime(Date.from(now.plus(Duration.ofMinutes(5))))
        .claim("roles", roles);
  }

  /** {@code claims} signed with {@code key} (RS256, naming its key id), serialized. */
  static String sign(RSAKey key, JWTClaimsSet claims) {
    try {
      SignedJWT jwt =
          new SignedJWT(
              new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
      jwt.sign(new RSASSASigner(key));
      return jwt.serialize();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The PKCE S256 challenge of {@code verifier} (RFC 7636). */
  static String s256(String verifier) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The fields of a query string or form body. */
  static Map<String, String> form(String encoded) {
    Map<String, String> fields = new HashMap<>();
    if (encoded == null || encoded.isEmpty()) {
      return fields;
    }
    for (String pair : encoded.split("&")) {
      int equals = pair.indexOf('=');
      String name = equals < 0 ? pair : pair.substring(0, equals);
      String value = equals < 0 ? "" : pair.substring(equals + 1);
      fields.put(
          URLDecoder.decode(name, StandardCharsets.UTF_8),
          URLDecoder.decode(value, StandardCharsets.UTF_8));
    }
    return fields;
  }

  /**
   * What a node with OIDC takes: {@code oidc}'s tokens, and API keys from a keys file holding one
   * admin key, {@code adminToken} (named root), for the test's own setup calls.
   */
  static Authenticator keysAndTokens(String adminToken, OidcSettings oidc) {
    try {
      Path file = Files.createTempFile("baton-keys", ".yaml");
      Files.writeString(
          file,
          "keys:\n  - {name: root, role: admin, hash: \"" + ApiTokens.hash(adminToken) + "\"}\n");
      return new BearerTokens(
          ApiKeys.load(file, SystemScheduler.systemClock()),
          new OidcTokens(oidc, SystemScheduler.systemClock()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A JSON answer, readable from any origin. */
  static void send(HttpExchange exchange, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.getResponseHeaders().add("Access-Control-Allow-Origin", "*");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private void answer(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    hits.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
    HttpHandler endpoint = endpoints.get(path);
    if (endpoint != null) {
      endpoint.handle(exchange);
      return;
    }
    String document = documents.get(path);
    if (document == null) {
      send(exchange, 404, "{\"error\": \"not_found\"}");
    } else {
      send(exchange, 200, document);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}

package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import io.baton.node.auth.ApiKeys;
import io.baton.node.auth.ApiTokens;
import io.baton.node.auth.AuthenticationFailedException;
import io.baton.node.auth.Authenticator;
import io.baton.node.auth.BearerTokens;
import io.baton.node.auth.OidcSettings;
import io.baton.node.auth.OidcTokens;
import io.baton.node.config.ConfigLoader;
import io.baton.node.config.NodeConfig;
import io.baton.time.SystemScheduler;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * OIDC with {@code auth.oidc.issuer} alone: the node finds the issuer's JWKS through its discovery
 * document ({@code /.well-known/openid-configuration}, its {@code jwks_uri}), served with the JWKS
 * by a small identity provider in this test, whose keys sign the tokens. A document that names
 * another issuer, or none at all, refuses the token with the reason; an issuer that answers later
 * is used once it does.
 */
class OidcDiscoveryApiTest extends ApiTestBase {
  private static final String AUDIENCE = "baton-api";

  private final RSAKey key = generate("idp-key");

  /** What the identity provider answers, by path; a path it lacks answers 404. */
  private final Map<String, String> documents = new ConcurrentHashMap<>();

  private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
  private final String adminKey = ApiTokens.generate();
  private HttpServer idp;

  private static RSAKey generate(String kid) {
    try {
      return new RSAKeyGenerator(2048).keyID(kid).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private String idpBase() {
    if (idp == null) {
      try {
        idp = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      idp.createContext(
          "/",
          exchange -> {
            String path = exchange.getRequestURI().getPath();
            hits.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
            String body = documents.get(path);
            byte[] bytes = (body == null ? "not found" : body).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(body == null ? 404 : 200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(bytes);
            }
          });
      idp.start();
    }
    return "http://127.0.0.1:" + idp.getAddress().getPort();
  }

  /** An issuer at {@code realm} on the test's identity provider, publishing its JWKS. */
  private String realm(String realm) {
    String issuer = idpBase() + "/realms/" + realm;
    String jwksPath = "/realms/" + realm + "/protocol/openid-connect/certs";
    documents.put(jwksPath, new JWKSet(key.toPublicJWK()).toString(true));
    return issuer;
  }

  private void publishDiscovery(String realm, String issuerNamed) {
    documents.put(
        "/realms/" + realm + "/.well-known/openid-configuration",
        "{\"issuer\": \""
            + issuerNamed
            + "\", \"jwks_uri\": \""
            + idpBase()
            + "/realms/"
            + realm
            + "/protocol/openid-connect/certs\","
            + " \"authorization_endpoint\": \""
            + idpBase()
            + "/realms/"
            + realm
            + "/auth\"}");
  }

  private int hits(String path) {
    return hits.getOrDefault(path, new AtomicInteger()).get();
  }

  /** The OIDC settings a node reads from its configuration, given the issuer and audience only. */
  private static OidcSettings configured(String issuer) {
    NodeConfig config =
        NodeConfig.from(
            ConfigLoader.load(
                null,
                Map.of(
                    "BATON_AUTH_KEYS_FILE", "/etc/baton/keys.yaml",
                    "BATON_AUTH_OIDC_ISSUER", issuer,
                    "BATON_AUTH_OIDC_AUDIENCE", AUDIENCE),
                Map.of(),
                Map.of()));
    return config.auth().oidc().withJwksMinRefresh(Duration.ofMillis(100));
  }

  @Override
  protected Authenticator authenticator() {
    try {
      String issuer = realm("baton");
      publishDiscovery("baton", issuer);
      Path file = Files.createTempFile("baton-keys", ".yaml");
      Files.writeString(
          file,
          "keys:\n  - {name: root, role: admin, hash: \"" + ApiTokens.hash(adminKey) + "\"}\n");
      return new BearerTokens(
          ApiKeys.load(file, SystemScheduler.systemClock()),
          new OidcTokens(configured(issuer), SystemScheduler.systemClock()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @AfterAll
  void stopIdp() {
    if (idp != null) {
      idp.stop(0);
    }
  }

  private static String token(RSAKey key, String issuer, String subject, Object roles) {
    Instant now = Instant.now();
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .issuer(issuer)
            .audience(AUDIENCE)
            .subject(subject)
            .issueTime(Date.from(now))
            .expirationTime(Date.from(now.plusSeconds(300)))
            .claim("roles", roles)
            .build();
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

  @Test
  void the_issuer_alone_finds_its_keys_through_the_discovery_document() {
    String issuer = idpBase() + "/realms/baton";
    OidcSettings settings = configured(issuer);
    assertThat(settings.jwksUrl()).as("no jwksUrl configured").isNull();
    assertThat(settings.discoveryUrl()).hasToString(issuer + "/.well-known/openid-configuration");

    String operator = token(key, issuer, "alice@example.test", List.of("operator"));
    Reply me = node.calls().withToken(operator).get("/api/v1/me");
    assertThat(me.status()).as("%s", me).isEqualTo(200);
    JsonNode caller = me.json();
    assertThat(caller.get("name").asText()).isEqualTo("alice@example.test");
    assertThat(caller.get("role").asText()).isEqualTo("operator");
    assertThat(caller.get("via").asText()).isEqualTo("oidc");
    assertThat(node.calls().withToken(operator).get("/api/v1/runs").status()).isEqualTo(200);

    assertThat(hits("/realms/baton/.well-known/openid-configuration"))
        .as("the discovery document is read once")
        .isEqualTo(1);
    assertThat(hits("/realms/baton/protocol/openid-connect/certs"))
        .as("the JWKS it names is fetched")
        .isPositive();
    assertThat(node.calls().withToken(adminKey).get("/api/v1/keys").status())
        .as("API keys still work")
        .isEqualTo(200);
  }

  @Test
  void a_discovery_document_that_names_another_issuer_is_not_trusted() {
    String issuer = realm("impostor");
    publishDiscovery("impostor", "https://idp.example.test/realms/other");
    OidcTokens tokens = new OidcTokens(configured(issuer), SystemScheduler.systemClock());

    assertThatThrownBy(() -> tokens.authenticate(token(key, issuer, "mallory", "admin")))
        .isInstanceOf(AuthenticationFailedException.class)
        .hasMessageContaining("The bearer token was refused")
        .hasMessageContaining(issuer + "/.well-known/openid-configuration")
        .hasMessageContaining("names issuer 'https://idp.example.test/realms/other'");
    assertThat(hits("/realms/impostor/protocol/openid-connect/certs"))
        .as("keys of a document that is not the issuer's are never fetched")
        .isZero();
  }

  @Test
  void an_issuer_without_a_discovery_document_is_refused_until_it_publishes_one() {
    String issuer = realm("late");
    OidcTokens tokens = new OidcTokens(configured(issuer), SystemScheduler.systemClock());
    String viewer = token(key, issuer, "bob", "viewer");

    assertThatThrownBy(() -> tokens.authenticate(viewer))
        .isInstanceOf(AuthenticationFailedException.class)
        .hasMessageContaining(
            "the issuer's discovery document "
                + issuer
                + "/.well-known/openid-configuration could not be used")
        .hasMessageContaining("answered HTTP 404");

    publishDiscovery("late", issuer);
    await("the issuer's keys, once it publishes its discovery document")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(150))
        .ignoreExceptions()
        .untilAsserted(() -> assertThat(tokens.authenticate(viewer).name()).isEqualTo("bob"));
  }

  @Test
  void a_configured_jwks_url_overrides_discovery() {
    String issuer = realm("override");
    OidcTokens tokens =
        new OidcTokens(
            OidcSettings.of(
                issuer,
                AUDIENCE,
                URI.create(idpBase() + "/realms/override/protocol/openid-connect/certs")),
            SystemScheduler.systemClock());
    assertThat(tokens.authenticate(token(key, issuer, "carol", "viewer")).name())
        .isEqualTo("carol");
    assertThat(hits("/realms/override/.well-known/openid-configuration"))
        .as("no discovery document is asked for")
        .isZero();
  }
}

package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * OIDC/JWT bearer tokens on a node that also takes API keys: tokens signed by keys the test makes,
 * checked against a JWKS a local HTTP server serves. A token of the issuer for this audience, not
 * expired, with a role claim, acts with that role; an expired one, one for another audience or
 * issuer, one signed by a key the JWKS lacks, or one without a role is refused with 401 and a
 * problem that says why; a key the issuer adds later (rotation) is accepted once the node fetches
 * the JWKS again.
 */
class OidcApiTest extends ApiTestBase {
  private static final String ISSUER = "https://idp.example.test/realms/baton";
  private static final String AUDIENCE = "baton-api";

  private final RSAKey first = generate("first");
  private final RSAKey rotated = generate("rotated");
  private final RSAKey stranger = generate("stranger");
  private final AtomicReference<JWKSet> served =
      new AtomicReference<>(new JWKSet(first.toPublicJWK()));
  private final AtomicInteger fetches = new AtomicInteger();
  private final String adminKey = ApiTokens.generate();
  private HttpServer jwks;

  private static RSAKey generate(String kid) {
    try {
      return new RSAKeyGenerator(2048).keyID(kid).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  protected Authenticator authenticator() {
    try {
      if (jwks == null) {
        jwks = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        jwks.createContext(
            "/jwks",
            exchange -> {
              fetches.incrementAndGet();
              byte[] body = served.get().toString(true).getBytes(StandardCharsets.UTF_8);
              exchange.getResponseHeaders().add("Content-Type", "application/json");
              exchange.sendResponseHeaders(200, body.length);
              try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
              }
            });
        jwks.start();
      }
      Path file = Files.createTempFile("baton-keys", ".yaml");
      Files.writeString(
          file,
          "keys:\n  - {name: root, role: admin, hash: \"" + ApiTokens.hash(adminKey) + "\"}\n");
      URI url = URI.create("http://127.0.0.1:" + jwks.getAddress().getPort() + "/jwks");
      return new BearerTokens(
          ApiKeys.load(file, SystemScheduler.systemClock()),
          new OidcTokens(
              OidcSettings.of(ISSUER, AUDIENCE, url).withJwksMinRefresh(Duration.ofMillis(100)),
              SystemScheduler.systemClock()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @AfterAll
  void stopJwks() {
    if (jwks != null) {
      jwks.stop(0);
    }
  }

  private static String token(RSAKey key, JWTClaimsSet claims) {
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

  private static JWTClaimsSet.Builder claims(String subject, Object roles) {
    Instant now = Instant.now();
    return new JWTClaimsSet.Builder()
        .issuer(ISSUER)
        .audience(AUDIENCE)
        .subject(subject)
        .issueTime(Date.from(now))
        .expirationTime(Date.from(now.plusSeconds(300)))
        .claim("roles", roles);
  }

  private Reply call(String token, String path) {
    return node.calls().withToken(token).get(path);
  }

  private static void assertRefused(Reply reply, String why) {
    assertThat(reply.status()).as("%s", reply).isEqualTo(401);
    assertThat(reply.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
    JsonNode problem = reply.json();
    assertThat(problem.get("type").asText()).endsWith("unauthenticated");
    assertThat(problem.get("detail").asText())
        .contains("The bearer token was refused")
        .contains(why);
  }

  @Test
  void a_token_of_the_issuer_acts_with_the_role_in_its_claim() {
    String operator =
        token(first, claims("alice@example.test", List.of("other-app", "operator")).build());
    JsonNode me = call(operator, "/api/v1/me").json();
    assertThat(me.get("name").asText()).isEqualTo("alice@example.test");
    assertThat(me.get("role").asText()).isEqualTo("operator");
    assertThat(me.get("via").asText()).isEqualTo("oidc");
    assertThat(call(operator, "/api/v1/runs").status()).isEqualTo(200);
    Reply refused =
        node.calls()
            .withToken(operator)
            .post("/api/v1/flows", TestFlows.quick(uniqueName("f")), "text/yaml");
    assertThat(refused.status()).isEqualTo(403);
    assertThat(call(adminKey, "/api/v1/keys").status()).as("API keys still work").isEqualTo(200);
  }

  @Test
  void an_expired_token_is_refused_with_a_problem_that_says_so() {
    Instant past = Instant.now().minusSeconds(3600);
    String expired =
        token(
            first,
            claims("bob", "viewer")
                .issueTime(Date.from(past))
                .expirationTime(Date.from(past.plusSeconds(60)))
                .build());
    assertRefused(call(expired, "/api/v1/runs"), "expired");
  }

  @Test
  void a_token_for_another_audience_or_issuer_is_refused() {
    assertRefused(
        call(token(first, claims("bob", "viewer").audience("another-api").build()), "/api/v1/runs"),
        "audience");
    assertRefused(
        call(
            token(first, claims("bob", "viewer").issuer("https://evil.example").build()),
            "/api/v1/runs"),
        "another issuer");
  }

  @Test
  void a_token_signed_by_a_key_the_issuer_does_not_publish_is_refused() {
    assertRefused(
        call(token(stranger, claims("mallory", "admin").build()), "/api/v1/runs"), "JWKS");
    String good = token(first, claims("bob", "viewer").build());
    String[] parts = good.split("\\.");
    String tampered =
        parts[0]
            + "."
            + token(first, claims("bob", "admin").build()).split("\\.")[1]
            + "."
            + parts[2];
    assertRefused(call(tampered, "/api/v1/runs"), "JWKS");
  }

  @Test
  void a_token_without_a_baton_role_is_refused() {
    assertRefused(
        call(token(first, claims("carol", List.of("other-app")).build()), "/api/v1/runs"),
        "no Baton role");
  }

  @Test
  void a_key_the_issuer_rotates_in_is_accepted_after_the_jwks_is_fetched_again() {
    assertThat(call(token(first, claims("dave", "viewer").build()), "/api/v1/runs").status())
        .isEqualTo(200);
    String withNewKey = token(rotated, claims("dave", "viewer").build());
    served.set(new JWKSet(List.of(first.toPublicJWK(), rotated.toPublicJWK())));
    int before = fetches.get();
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(() -> assertThat(call(withNewKey, "/api/v1/runs").status()).isEqualTo(200));
    assertThat(fetches.get()).as("the JWKS was fetched again").isGreaterThan(before);
  }
}

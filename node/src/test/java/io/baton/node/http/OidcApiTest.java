package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import io.baton.node.auth.ApiTokens;
import io.baton.node.auth.Authenticator;
import io.baton.node.auth.OidcSettings;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * OIDC/JWT bearer tokens on a node that also takes API keys: tokens signed by keys the test makes,
 * checked against a JWKS a {@link TestIdentityProvider} serves. A token of the issuer for this
 * audience, not expired, with a role claim, acts with that role; an expired one, one for another
 * audience or issuer, one signed by a key the JWKS lacks, or one without a role is refused with 401
 * and a problem that says why; a key the issuer adds later (rotation) is accepted once the node
 * fetches the JWKS again.
 */
class OidcApiTest extends ApiTestBase {
  private static final String ISSUER = "https://idp.example.test/realms/baton";
  private static final String JWKS_PATH = "/jwks";

  private final RSAKey first = TestIdentityProvider.newKey("first");
  private final RSAKey rotated = TestIdentityProvider.newKey("rotated");
  private final RSAKey stranger = TestIdentityProvider.newKey("stranger");
  private final RSAKey reused = TestIdentityProvider.newKey("reused");
  private final RSAKey reusedAgain = TestIdentityProvider.newKey("reused"); // another key, same id
  private final String adminKey = ApiTokens.generate();
  private TestIdentityProvider idp;

  @Override
  protected Authenticator authenticator() {
    if (idp == null) {
      idp = TestIdentityProvider.start();
      idp.publishKeysAt(JWKS_PATH, first);
    }
    URI url = URI.create(idp.base() + JWKS_PATH);
    return TestIdentityProvider.keysAndTokens(
        adminKey,
        OidcSettings.of(ISSUER, TestIdentityProvider.AUDIENCE, url)
            .withJwksMinRefresh(Duration.ofMillis(100)));
  }

  @AfterAll
  void stopIdp() {
    if (idp != null) {
      idp.close();
    }
  }

  private static String token(RSAKey key, JWTClaimsSet claims) {
    return TestIdentityProvider.sign(key, claims);
  }

  private static JWTClaimsSet.Builder claims(String subject, Object roles) {
    return TestIdentityProvider.claims(ISSUER, subject, roles);
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

  /**
   * A forged signature under a known key id makes the node fetch the keys again; a token of an
   * unknown key id right after finds the fetch rate-limited, and is refused for its key all the
   * same, not as if the issuer could not be reached.
   */
  @Test
  void a_token_of_an_unknown_key_while_fetches_are_rate_limited_is_refused_for_its_key() {
    String tampered = tampered();
    for (int i = 0; i < 3; i++) {
      assertRefused(call(tampered, "/api/v1/runs"), "JWKS");
    }
    for (int i = 0; i < 3; i++) {
      assertRefused(
          call(token(stranger, claims("mallory", "admin").build()), "/api/v1/runs"), "JWKS");
    }
  }

  @Test
  void a_token_signed_by_a_key_the_issuer_does_not_publish_is_refused() {
    assertRefused(
        call(token(stranger, claims("mallory", "admin").build()), "/api/v1/runs"), "JWKS");
    String tampered = tampered();
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
    idp.publishKeysAt(JWKS_PATH, first, rotated);
    int before = idp.hits(JWKS_PATH);
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(() -> assertThat(call(withNewKey, "/api/v1/runs").status()).isEqualTo(200));
    assertThat(idp.hits(JWKS_PATH)).as("the JWKS was fetched again").isGreaterThan(before);
  }

  @Test
  void
      a_new_key_the_issuer_puts_under_a_known_key_id_is_accepted_after_the_jwks_is_fetched_again() {
    idp.publishKeysAt(JWKS_PATH, first, rotated, reused);
    String withOldKey = token(reused, claims("erin", "viewer").build());
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(() -> assertThat(call(withOldKey, "/api/v1/runs").status()).isEqualTo(200));

    idp.publishKeysAt(JWKS_PATH, first, rotated, reusedAgain);
    String withNewKey = token(reusedAgain, claims("erin", "viewer").build());
    int before = idp.hits(JWKS_PATH);
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(() -> assertThat(call(withNewKey, "/api/v1/runs").status()).isEqualTo(200));
    assertThat(idp.hits(JWKS_PATH)).as("the JWKS was fetched again").isGreaterThan(before);
    assertRefused(call(withOldKey, "/api/v1/runs"), "JWKS");
  }

  /** A viewer's token whose claims were swapped for an admin's: the signature no longer fits. */
  private String tampered() {
    String[] parts = token(first, claims("bob", "viewer").build()).split("\\.");
    return parts[0]
        + "."
        + token(first, claims("bob", "admin").build()).split("\\.")[1]
        + "."
        + parts[2];
  }
}

package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.jwk.RSAKey;
import io.baton.node.auth.ApiTokens;
import io.baton.node.auth.AuthenticationFailedException;
import io.baton.node.auth.Authenticator;
import io.baton.node.auth.OidcSettings;
import io.baton.node.auth.OidcTokens;
import io.baton.node.config.ConfigLoader;
import io.baton.node.config.NodeConfig;
import io.baton.time.SystemScheduler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * OIDC with {@code auth.oidc.issuer} alone: the node finds the issuer's JWKS through its discovery
 * document ({@code /.well-known/openid-configuration}, its {@code jwks_uri}), served with the JWKS
 * by a {@link TestIdentityProvider}, whose keys sign the tokens. A document that names another
 * issuer, or none at all, refuses the token with the reason; an issuer that answers later is used
 * once it does.
 */
class OidcDiscoveryApiTest extends ApiTestBase {
  private static final String AUDIENCE = TestIdentityProvider.AUDIENCE;

  private final RSAKey key = TestIdentityProvider.newKey("idp-key");
  private final String adminKey = ApiTokens.generate();
  private TestIdentityProvider idp;

  private TestIdentityProvider idp() {
    if (idp == null) {
      idp = TestIdentityProvider.start();
    }
    return idp;
  }

  private String idpBase() {
    return idp().base();
  }

  /** An issuer at {@code realm} on the test's identity provider, publishing its JWKS. */
  private String realm(String realm) {
    return idp().publishKeys(realm, key);
  }

  private void publishDiscovery(String realm, String issuerNamed) {
    idp().publishDiscovery(realm, issuerNamed);
  }

  private int hits(String path) {
    return idp().hits(path);
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
    String issuer = realm("baton");
    publishDiscovery("baton", issuer);
    return TestIdentityProvider.keysAndTokens(adminKey, configured(issuer));
  }

  @AfterAll
  void stopIdp() {
    if (idp != null) {
      idp.close();
    }
  }

  private static String token(RSAKey key, String issuer, String subject, Object roles) {
    return TestIdentityProvider.sign(
        key, TestIdentityProvider.claims(issuer, subject, roles).build());
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
            OidcSettings.of(issuer, AUDIENCE, idp().jwksUrl("override")),
            SystemScheduler.systemClock());
    assertThat(tokens.authenticate(token(key, issuer, "carol", "viewer")).name())
        .isEqualTo("carol");
    assertThat(hits("/realms/override/.well-known/openid-configuration"))
        .as("no discovery document is asked for")
        .isZero();
  }
}

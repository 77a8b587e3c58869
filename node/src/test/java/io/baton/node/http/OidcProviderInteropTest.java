package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jwt.SignedJWT;
import io.baton.node.auth.ApiTokens;
import io.baton.node.auth.Authenticator;
import io.baton.node.config.ConfigLoader;
import io.baton.node.config.NodeConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.text.ParseException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.http.NettyWrapper;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import no.nav.security.mock.oauth2.token.KeyProvider;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The node and the dashboard against an OpenID Connect provider that Baton did not write: NAV's
 * mock-oauth2-server (no.nav.security:mock-oauth2-server, from Maven Central), a standalone
 * provider with discovery, a JWKS, the token endpoint's grants (client credentials, authorization
 * code with PKCE, refresh token) and CORS, run in this JVM on a loopback port. The node is
 * configured as an operator would: the issuer's URL (its keys found through discovery), the
 * audience, and the claim that holds the role. Tokens are asked for over HTTP from the provider's
 * token endpoint, never signed by the test.
 */
class OidcProviderInteropTest extends ApiTestBase {
  private static final String ISSUER_ID = "baton";
  private static final String AUDIENCE = "baton-api";
  private static final String ROLE_CLAIM = "baton_roles";
  private static final String CLIENT = "baton-dashboard";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String REFRESH_TOKEN =
      "return JSON.parse(sessionStorage.getItem('baton.refresh')).refreshToken";

  private final String adminKey = ApiTokens.generate();
  private final HttpClient client = HttpClient.newHttpClient();
  private MockOAuth2Server provider;
  private HeadlessChromium chromium;

  /**
   * The provider, started on first use: it makes its own signing key; its tokens are for the node's
   * audience with role operator in {@link #ROLE_CLAIM}, unless a test enqueues other claims.
   */
  private String issuer() {
    if (provider == null) {
      startProvider(0);
    }
    return provider.issuerUrl(ISSUER_ID).toString();
  }

  /**
   * Starts the provider on {@code port} (0: any) with a new signing key, which it names after the
   * issuer (key id {@code baton}) whatever the key's own id.
   */
  private void startProvider(int port) {
    DefaultOAuth2TokenCallback operator =
        new DefaultOAuth2TokenCallback(
            ISSUER_ID,
            "alice@example.test",
            "JWT",
            List.of(AUDIENCE),
            Map.of(ROLE_CLAIM, List.of("operator")),
            300);
    OAuth2Config config =
        new OAuth2Config(
            false, // interactiveLogin: the authorization endpoint signs in at once
            null,
            null,
            true, // rotateRefreshToken
            // a fresh key at every start (by default it signs with keys bundled in its jar)
            new OAuth2TokenProvider(
                new KeyProvider(List.of(TestIdentityProvider.newKey("any")), "RS256")),
            Set.of(operator),
            new NettyWrapper()); // its default server (OkHttp's MockWebServer) needs JUnit 4
    provider = new MockOAuth2Server(config);
    provider.start(InetAddress.getLoopbackAddress(), port);
  }

  /** What the node reads from its configuration: the issuer, the audience, the role claim. */
  private NodeConfig.Auth configured() {
    return NodeConfig.from(
            ConfigLoader.load(
                null,
                Map.of(
                    "BATON_AUTH_KEYS_FILE",
                    "/etc/baton/keys.yaml",
                    "BATON_AUTH_OIDC_ISSUER",
                    issuer(),
                    "BATON_AUTH_OIDC_AUDIENCE",
                    AUDIENCE,
                    "BATON_AUTH_OIDC_ROLE_CLAIM",
                    ROLE_CLAIM,
                    "BATON_AUTH_OIDC_CLIENT_ID",
                    CLIENT,
                    "BATON_AUTH_OIDC_SCOPE",
                    "openid offline_access"),
                Map.of(),
                Map.of()))
        .auth();
  }

  @Override
  protected Authenticator authenticator() {
    NodeConfig.Auth auth = configured();
    assertThat(auth.oidc().jwksUrl()).as("keys found through discovery").isNull();
    return TestIdentityProvider.keysAndTokens(
        adminKey, auth.oidc().withJwksMinRefresh(Duration.ofMillis(100)));
  }

  @Override
  protected DashboardSignIn dashboardSignIn() {
    return configured().dashboardSignIn();
  }

  @AfterAll
  void stopProvider() throws IOException {
    if (chromium != null) {
      chromium.close();
    }
    if (provider != null) {
      provider.shutdown();
    }
  }

  /** A token from the provider's token endpoint for a client of its own (client credentials). */
  private String clientCredentialsToken() throws IOException, InterruptedException {
    String body =
        "grant_type=client_credentials&client_id=ci&client_secret=ci-secret&scope=" + AUDIENCE;
    HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(provider.tokenEndpointUrl(ISSUER_ID).uri())
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as("%s", response.body()).isEqualTo(200);
    return JSON.readTree(response.body()).get("access_token").asText();
  }

  private Reply me(String token) {
    return node.calls().withToken(token).get("/api/v1/me");
  }

  @Test
  void a_token_the_provider_issues_acts_with_the_role_in_the_configured_claim() throws Exception {
    String token = clientCredentialsToken();
    assertThat(SignedJWT.parse(token).getJWTClaimsSet().getIssuer()).isEqualTo(issuer());

    Reply me = me(token);
    assertThat(me.status()).as("%s", me).isEqualTo(200);
    JsonNode caller = me.json();
    assertThat(caller.get("name").asText()).as("the client is the subject").isEqualTo("ci");
    assertThat(caller.get("role").asText()).isEqualTo("operator");
    assertThat(caller.get("via").asText()).isEqualTo("oidc");
    assertThat(node.calls().withToken(token).get("/api/v1/runs").status()).isEqualTo(200);
    assertThat(node.calls().withToken(token).get("/api/v1/keys").status())
        .as("an operator is not an admin")
        .isEqualTo(403);
  }

  @Test
  void a_token_for_another_audience_or_without_a_baton_role_is_refused() throws Exception {
    provider.enqueueCallback(
        new DefaultOAuth2TokenCallback(
            ISSUER_ID,
            "mallory",
            "JWT",
            List.of("another-api"),
            Map.of(ROLE_CLAIM, List.of("admin")),
            300));
    Reply otherAudience = me(clientCredentialsToken());
    assertThat(otherAudience.status()).isEqualTo(401);
    assertThat(otherAudience.body()).contains("not meant for this node");

    provider.enqueueCallback(
        new DefaultOAuth2TokenCallback(
            ISSUER_ID,
            "mallory",
            "JWT",
            List.of(AUDIENCE),
            Map.of("roles", List.of("admin")),
            300));
    Reply roleInAnotherClaim = me(clientCredentialsToken());
    assertThat(roleInAnotherClaim.status()).isEqualTo(401);
    assertThat(roleInAnotherClaim.body())
        .contains("has no Baton role in claim '" + ROLE_CLAIM + "'");
  }

  /**
   * The provider names its key after the issuer (key id {@code baton}): restarted at the same
   * address with a new key, it signs with that key under the same key id.
   */
  @Test
  void a_provider_that_signs_with_a_new_key_under_the_same_key_id_is_followed() throws Exception {
    String before = clientCredentialsToken();
    assertThat(me(before).status()).isEqualTo(200);

    int port = provider.baseUrl().port();
    provider.shutdown();
    await("the provider back on its port (its server closes the old socket in the background)")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .until(
            () -> {
              startProvider(port);
              return true;
            });
    String after = clientCredentialsToken();
    assertThat(SignedJWT.parse(after).getHeader().getKeyID())
        .isEqualTo(SignedJWT.parse(before).getHeader().getKeyID());
    Reply me = me(after);
    assertThat(me.status()).as("%s", me).isEqualTo(200);
    assertThat(me.json().get("role").asText()).isEqualTo("operator");
    assertThat(me(before).status()).as("the old key is gone").isEqualTo(401);
  }

  @Test
  void the_dashboard_signs_in_through_the_provider_with_a_pkce_code() throws IOException {
    chromium = HeadlessChromium.start(TIMEOUT);
    WebDriver browser = chromium.driver();
    browser.get(node.uri() + "/#/cluster");
    chromium.await(By.id("sign-in-oidc")).click();

    chromium
        .waiting()
        .until(
            ExpectedConditions.textToBePresentInElementLocated(
                By.id("who"), "alice@example.test (operator)"));
    assertThat(browser.getCurrentUrl()).doesNotContain("code=").endsWith("/#/cluster");
    Object refresh = chromium.script("return sessionStorage.getItem('baton.refresh')");
    assertThat(refresh).as("offline_access gave a refresh token").isNotNull();
    String token = String.valueOf(chromium.script("return sessionStorage.getItem('baton.token')"));
    assertThat(issuerOf(token)).isEqualTo(issuer());

    // the provider's refresh grant, as the dashboard asks for it before the token expires
    Object firstRefresh = chromium.script(REFRESH_TOKEN);
    chromium.script("return refreshToken(true)");
    chromium
        .waiting()
        .until(
            driver ->
                !token.equals(chromium.script("return sessionStorage.getItem('baton.token')")));
    assertThat(browser.findElements(By.id("sign-in"))).isEmpty();
    assertThat(chromium.script(REFRESH_TOKEN))
        .as("the provider rotated the refresh token")
        .isNotEqualTo(firstRefresh);
    assertThat(
            me(String.valueOf(chromium.script("return sessionStorage.getItem('baton.token')")))
                .status())
        .as("the renewed token is accepted")
        .isEqualTo(200);
  }

  private static String issuerOf(String token) {
    try {
      return SignedJWT.parse(token).getJWTClaimsSet().getIssuer();
    } catch (ParseException e) {
      throw new IllegalStateException(e);
    }
  }
}

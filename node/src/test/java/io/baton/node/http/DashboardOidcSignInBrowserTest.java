package io.baton.node.http;

import static io.baton.node.http.TestIdentityProvider.form;
import static io.baton.node.http.TestIdentityProvider.s256;
import static io.baton.node.http.TestIdentityProvider.send;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.RSAKey;
import com.sun.net.httpserver.HttpExchange;
import io.baton.node.auth.ApiTokens;
import io.baton.node.auth.Authenticator;
import io.baton.node.auth.OidcSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The dashboard signs in with the organisation's identity provider, in real headless Chromium: the
 * authorization-code flow with PKCE against a {@link TestIdentityProvider} (discovery document, and
 * this test's authorization endpoint that signs "alice" in at once, token endpoint that checks the
 * code, the redirect URI and the verifier against the S256 challenge, JWKS with the key that signs
 * its tokens). The dashboard comes back signed in as the token's subject with its role, the code is
 * gone from the address, the token is in sessionStorage only; an answer whose state this tab did
 * not ask for is refused without asking for a token. With refresh tokens the dashboard renews a
 * short-lived access token before it expires (with the rotated refresh token), renews on the node's
 * 401 and makes the call again, and signs out with the provider's reason when it refuses to renew.
 */
class DashboardOidcSignInBrowserTest extends ApiTestBase {
  private static final String REALM = "baton";
  private static final String CLIENT = "baton-dashboard";

  private final RSAKey key = TestIdentityProvider.newKey("idp");
  private final String adminToken = ApiTokens.generate();

  /** Codes the authorization endpoint gave: code to {challenge, redirect_uri, client_id}. */
  private final Map<String, Map<String, String>> codes = new ConcurrentHashMap<>();

  private final List<String> authorizations = new CopyOnWriteArrayList<>();
  private final List<Map<String, String>> tokenRequests = new CopyOnWriteArrayList<>();

  /** Refresh tokens the token endpoint gave and has not yet traded (it rotates them). */
  private final Set<String> refreshTokens = ConcurrentHashMap.newKeySet();

  /** Access tokens the token endpoint gave, in order. */
  private final List<String> issued = new CopyOnWriteArrayList<>();

  // how the token endpoint behaves in the current test
  private volatile boolean giveRefreshTokens;
  private volatile long accessTokenSeconds;
  private volatile boolean firstTokenForAnotherAudience;
  private volatile boolean refusesToRefresh;

  private TestIdentityProvider idp;
  private HeadlessChromium chromium;
  private WebDriver browser;

  private String issuer() {
    if (idp == null) {
      idp = TestIdentityProvider.start();
      idp.openRealm(REALM, key);
      idp.handle("/realms/" + REALM + "/auth", this::authorize);
      idp.handle("/realms/" + REALM + "/token", this::token);
    }
    return idp.issuer(REALM);
  }

  /** Signs alice in at once (a real provider would ask her) and sends the browser back. */
  private void authorize(HttpExchange exchange) throws IOException {
    Map<String, String> query = form(exchange.getRequestURI().getRawQuery());
    authorizations.add(exchange.getRequestURI().getRawQuery());
    if (!"code".equals(query.get("response_type"))
        || !CLIENT.equals(query.get("client_id"))
        || !"S256".equals(query.get("code_challenge_method"))
        || query.get("code_challenge") == null) {
      send(exchange, 400, "{\"error\": \"invalid_request\"}");
      return;
    }
    String code = UUID.randomUUID().toString();
    codes.put(code, query);
    exchange
        .getResponseHeaders()
        .add(
            "Location",
            query.get("redirect_uri")
                + "?code="
                + code
                + "&state="
                + query.get("state")); // base64url: nothing to escape
    exchange.sendResponseHeaders(302, -1);
    exchange.close();
  }

  @BeforeEach
  void providerAsUsual() {
    authorizations.clear();
    tokenRequests.clear();
    giveRefreshTokens = false;
    accessTokenSeconds = 300;
    firstTokenForAnotherAudience = false;
    refusesToRefresh = false;
  }

  /**
   * The token endpoint: the code once, for the same client and redirect URI, and PKCE; a refresh
   * token once (it is rotated), for the same client, unless the test makes it refuse.
   */
  private void token(HttpExchange exchange) throws IOException {
    if (!"POST".equals(exchange.getRequestMethod())) {
      send(exchange, 405, "{\"error\": \"invalid_request\"}");
      return;
    }
    Map<String, String> body =
        form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    tokenRequests.add(body);
    if ("refresh_token".equals(body.get("grant_type"))) {
      refresh(exchange, body);
      return;
    }
    Map<String, String> granted = codes.remove(String.valueOf(body.get("code")));
    if (granted == null
        || !"authorization_code".equals(body.get("grant_type"))
        || !granted.get("client_id").equals(body.get("client_id"))
        || !granted.get("redirect_uri").equals(body.get("redirect_uri"))) {
      send(exchange, 400, "{\"error\": \"invalid_grant\"}");
      return;
    }
    if (!s256(body.getOrDefault("code_verifier", "")).equals(granted.get("code_challenge"))) {
      send(
          exchange,
          400,
          "{\"error\": \"invalid_grant\", \"error_description\": \"PKCE verification failed\"}");
      return;
    }
    sendTokens(exchange, firstTokenForAnotherAudience ? "another-api" : null);
  }

  private void refresh(HttpExchange exchange, Map<String, String> body) throws IOException {
    if (refusesToRefresh
        || !CLIENT.equals(body.get("client_id"))
        || !refreshTokens.remove(String.valueOf(body.get("refresh_token")))) {
      send(
          exchange,
          400,
          "{\"error\": \"invalid_grant\", \"error_description\": \"Session not active\"}");
      return;
    }
    sendTokens(exchange, null);
  }

  /** A new access token for alice (for {@code audience}, or the node's), with a refresh token. */
  private void sendTokens(HttpExchange exchange, String audience) throws IOException {
    String access = accessToken("alice@example.test", "operator", audience);
    issued.add(access);
    String refresh = "";
    if (giveRefreshTokens) {
      String refreshToken = UUID.randomUUID().toString();
      refreshTokens.add(refreshToken);
      refresh = ", \"refresh_token\": \"" + refreshToken + "\"";
    }
    send(
        exchange,
        200,
        "{\"access_token\": \""
            + access
            + "\", \"token_type\": \"Bearer\", \"expires_in\": "
            + accessTokenSeconds
            + refresh
            + "}");
  }

  private String accessToken(String subject, String role, String audience) {
    var claims =
        TestIdentityProvider.claims(issuer(), subject, List.of(role))
            .expirationTime(Date.from(Instant.now().plusSeconds(accessTokenSeconds)));
    if (audience != null) {
      claims.audience(audience);
    }
    return TestIdentityProvider.sign(key, claims.build());
  }

  @Override
  protected Authenticator authenticator() {
    return TestIdentityProvider.keysAndTokens(
        adminToken,
        OidcSettings.of(issuer(), TestIdentityProvider.AUDIENCE, null)
            .withJwksMinRefresh(Duration.ofMillis(100)));
  }

  @Override
  protected DashboardSignIn dashboardSignIn() {
    return new DashboardSignIn(issuer(), CLIENT, "openid");
  }

  @BeforeAll
  void openBrowser() throws IOException {
    chromium = HeadlessChromium.start(TIMEOUT);
    browser = chromium.driver();
  }

  @AfterAll
  void close() throws IOException {
    if (chromium != null) {
      chromium.close();
    }
    if (idp != null) {
      idp.close();
    }
  }

  private void freshTab(String address) {
    browser.get(node.uri() + "/");
    chromium.script("sessionStorage.clear();");
    browser.get(address);
  }

  @Test
  void the_sign_in_page_offers_the_identity_provider_and_signs_in_with_a_pkce_code() {
    freshTab(node.uri() + "/#/cluster");
    WebElement button = chromium.await(By.id("sign-in-oidc"));
    assertThat(button.getText())
        .isEqualTo("Sign in with " + idp.base().substring("http://".length()));
    button.click();

    chromium
        .waiting()
        .until(
            ExpectedConditions.textToBePresentInElementLocated(
                By.id("who"), "alice@example.test (operator)"));
    assertThat(authorizations).hasSize(1);
    Map<String, String> asked = form(authorizations.get(0));
    assertThat(asked)
        .containsEntry("code_challenge_method", "S256")
        .containsEntry("redirect_uri", node.uri() + "/")
        .containsEntry("scope", "openid")
        .containsKey("state");
    assertThat(tokenRequests).as("one code traded, with the verifier").hasSize(1);
    assertThat(s256(tokenRequests.get(0).get("code_verifier")))
        .as("the verifier matches the challenge the tab sent first")
        .isEqualTo(asked.get("code_challenge"));
    assertThat(browser.getCurrentUrl())
        .as("the code left the address, the page the person was on is back")
        .doesNotContain("code=")
        .doesNotContain("state=")
        .endsWith("/#/cluster");
    assertThat(chromium.script("return sessionStorage.getItem('baton.token')"))
        .asString()
        .startsWith("ey");
    assertThat(chromium.script("return sessionStorage.getItem('baton.pkce')")).isNull();
    assertThat(chromium.script("return localStorage.length")).isEqualTo(0L);
    chromium.await(By.id("sign-out")).click();
    chromium.await(By.id("sign-in-oidc"));
  }

  @Test
  void an_answer_this_tab_did_not_ask_for_is_refused_without_asking_for_a_token() {
    int before = tokenRequests.size();
    freshTab(node.uri() + "/?code=forged&state=forged#/runs");
    WebElement reason = chromium.await(By.id("sign-in-reason"));
    assertThat(reason.getText()).contains("does not match this tab's sign-in (state)");
    assertThat(tokenRequests).hasSize(before);
    assertThat(browser.getCurrentUrl()).doesNotContain("forged");
  }

  /** Signs alice in with the identity provider from a fresh tab, as the first test does. */
  private void signInWithTheIssuer() {
    freshTab(node.uri() + "/#/runs");
    chromium.await(By.id("sign-in-oidc")).click();
  }

  private void awaitSignedInAsAlice() {
    chromium
        .waiting()
        .until(
            ExpectedConditions.textToBePresentInElementLocated(
                By.id("who"), "alice@example.test (operator)"));
  }

  private List<Map<String, String>> refreshRequests() {
    return tokenRequests.stream()
        .filter(request -> "refresh_token".equals(request.get("grant_type")))
        .toList();
  }

  private Object stored(String key) {
    return chromium.script("return sessionStorage.getItem('" + key + "')");
  }

  @Test
  void the_dashboard_renews_the_access_token_before_it_expires_with_the_rotated_refresh_token() {
    giveRefreshTokens = true;
    accessTokenSeconds = 4; // renewed a quarter of its life, one second, before it expires
    signInWithTheIssuer();
    awaitSignedInAsAlice();
    int before = refreshRequests().size();

    chromium.waiting().until(driver -> refreshRequests().size() >= before + 2);
    List<Map<String, String>> renewals = refreshRequests();
    assertThat(renewals.get(before)).containsEntry("client_id", CLIENT);
    assertThat(renewals.get(before + 1).get("refresh_token"))
        .as("the second renewal uses the refresh token the first one gave")
        .isNotEqualTo(renewals.get(before).get("refresh_token"));
    chromium.waiting().until(driver -> issued.get(issued.size() - 1).equals(stored("baton.token")));
    assertThat(chromium.await(By.id("who")).getText()).isEqualTo("alice@example.test (operator)");
    assertThat(browser.findElements(By.id("sign-in"))).as("never sent to sign in").isEmpty();
    assertThat(chromium.script("return localStorage.length")).isEqualTo(0L);

    chromium.await(By.id("sign-out")).click();
    chromium.await(By.id("sign-in-oidc"));
    assertThat(stored("baton.refresh")).as("sign-out forgets the refresh token").isNull();
  }

  @Test
  void a_token_the_node_refuses_is_renewed_and_the_call_made_again() {
    giveRefreshTokens = true;
    firstTokenForAnotherAudience = true;
    int before = refreshRequests().size();
    signInWithTheIssuer();
    awaitSignedInAsAlice();
    assertThat(refreshRequests()).as("one renewal, on the node's 401").hasSize(before + 1);
    assertThat(stored("baton.token")).isEqualTo(issued.get(issued.size() - 1));
  }

  @Test
  void a_renewal_the_identity_provider_refuses_signs_out_and_says_why() {
    giveRefreshTokens = true;
    accessTokenSeconds = 4;
    refusesToRefresh = true;
    signInWithTheIssuer();
    awaitSignedInAsAlice();

    WebElement reason = chromium.await(By.id("sign-in-reason"));
    assertThat(reason.getText())
        .contains("could not be renewed")
        .contains("Session not active")
        .contains("Sign in again");
    assertThat(stored("baton.token")).isNull();
    assertThat(stored("baton.refresh")).isNull();
    assertThat(browser.findElements(By.id("who"))).isEmpty();
    assertThat(chromium.await(By.id("sign-in-oidc")).isDisplayed()).isTrue();
  }
}

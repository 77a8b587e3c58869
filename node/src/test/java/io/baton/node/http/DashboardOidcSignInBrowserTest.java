package io.baton.node.http;

import static io.baton.node.http.TestIdentityProvider.form;
import static io.baton.node.http.TestIdentityProvider.s256;
import static io.baton.node.http.TestIdentityProvider.send;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.RSAKey;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.baton.node.auth.ApiKey;
import io.baton.node.auth.ApiTokens;
import io.baton.node.auth.Authenticator;
import io.baton.node.auth.OidcSettings;
import io.baton.node.auth.Principal;
import io.baton.node.auth.StoredKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

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
 * A provider that cannot be reached for a while (a 503, a dropped connection) is tried again with
 * back-off, the person staying signed in with a notice, until it answers or the token expires.
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

  /** When the last of them was given ({@link System#nanoTime()}). */
  private volatile long lastIssuedNanos;

  /** Bearer tokens the node was called with, in order. */
  private final List<String> bearerTokens = new CopyOnWriteArrayList<>();

  /** How the next refresh requests fail, one each, before the token endpoint answers as usual. */
  private final Queue<Outage> outages = new ConcurrentLinkedQueue<>();

  /** A token endpoint that cannot renew for now, or refuses for good. */
  private enum Outage {
    /** 503: the provider is there but cannot answer (restarting, its database down). */
    UNAVAILABLE,
    /** 401 invalid_client: a refusal (RFC 6749 section 5.2), not worth another try. */
    REFUSED
  }

  /**
   * The token endpoint's own server, where the discovery document points: stopped, the provider
   * cannot be reached at all (the connection is refused and the browser's fetch rejects). A
   * connection closed without an answer would not do: Chromium sends the request again by itself.
   */
  private HttpServer tokenHost;

  private int tokenPort;

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
      reachTokenHost();
      String tokenEndpoint = "http://127.0.0.1:" + tokenPort + "/token";
      String discovery =
          "{\"issuer\": \"%s\", \"authorization_endpoint\": \"%s/auth\", \"token_endpoint\": \"%s\", \"jwks_uri\": \"%s\"}"
              .formatted(idp.issuer(REALM), idp.issuer(REALM), tokenEndpoint, idp.jwksUrl(REALM));
      idp.handle(
          "/realms/" + REALM + "/.well-known/openid-configuration",
          exchange -> send(exchange, 200, discovery));
    }
    return idp.issuer(REALM);
  }

  /** Starts the token endpoint's server, on the port it had before if it had one. */
  private void reachTokenHost() {
    if (tokenHost != null) {
      return;
    }
    try {
      tokenHost =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), tokenPort), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    tokenHost.createContext("/token", this::token);
    tokenHost.start();
    tokenPort = tokenHost.getAddress().getPort();
  }

  /** Stops the token endpoint's server: nothing listens on its port. */
  private void unreachTokenHost() {
    tokenHost.stop(0);
    tokenHost = null;
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
    outages.clear();
    reachTokenHost();
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
    Outage outage = outages.poll();
    if (outage == Outage.UNAVAILABLE) {
      send(exchange, 503, "{\"error\": \"temporarily_unavailable\"}");
      return;
    }
    if (outage == Outage.REFUSED) {
      send(
          exchange,
          401,
          "{\"error\": \"invalid_client\", \"error_description\": \"Client disabled\"}");
      return;
    }
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
    lastIssuedNanos = System.nanoTime();
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
    return recording(
        TestIdentityProvider.keysAndTokens(
            adminToken,
            OidcSettings.of(issuer(), TestIdentityProvider.AUDIENCE, null)
                .withJwksMinRefresh(Duration.ofMillis(100))));
  }

  /** {@code delegate}, noting every bearer token the node is called with. */
  private Authenticator recording(Authenticator delegate) {
    return new Authenticator() {
      @Override
      public Principal authenticate(String bearerToken) {
        if (bearerToken != null) {
          bearerTokens.add(bearerToken);
        }
        return delegate.authenticate(bearerToken);
      }

      @Override
      public boolean required() {
        return delegate.required();
      }

      @Override
      public Authenticator withStoredKeys(StoredKeys stored) {
        return recording(delegate.withStoredKeys(stored));
      }

      @Override
      public List<ApiKey> fileKeys() {
        return delegate.fileKeys();
      }
    };
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
    if (tokenHost != null) {
      tokenHost.stop(0);
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

  /** Waits for longer than the usual timeout: for renewals due more than its 15 s away. */
  private WebDriverWait waitingLong() {
    return new WebDriverWait(browser, Duration.ofSeconds(45), Duration.ofMillis(100));
  }

  @Test
  void
      an_identity_provider_that_cannot_be_reached_for_a_while_is_tried_again_and_the_sign_in_kept() {
    giveRefreshTokens = true;
    accessTokenSeconds = 16; // renewed 4 s before it expires: at 12 s, 13 s and 15 s
    outages.add(Outage.UNAVAILABLE);
    signInWithTheIssuer();
    awaitSignedInAsAlice();
    Object first = stored("baton.token");
    int before = refreshRequests().size();

    WebElement notice =
        waitingLong().until(ExpectedConditions.visibilityOfElementLocated(By.id("renewal")));
    assertThat(notice.getText()).isEqualTo("sign-in renewal failing · retrying");
    assertThat(notice.getDomProperty("title"))
        .startsWith(
            "Renewing the sign-in failed 1 time(s): the identity provider answered HTTP 503");
    assertThat(refreshRequests()).hasSize(before + 1);
    unreachTokenHost();
    chromium
        .waiting()
        .until(driver -> String.valueOf(notice.getDomProperty("title")).contains("2 time(s)"));
    assertThat(notice.getDomProperty("title")).contains("could not be reached");
    assertThat(browser.findElements(By.id("sign-in"))).as("still signed in").isEmpty();
    reachTokenHost();

    waitingLong().until(driver -> !first.equals(stored("baton.token")));
    assertThat(refreshRequests())
        .as("the 503, then the renewal (the refused connection reached no one)")
        .hasSize(before + 2);
    assertThat(stored("baton.token")).isEqualTo(issued.get(issued.size() - 1));
    chromium.waiting().until(ExpectedConditions.invisibilityOfElementLocated(By.id("renewal")));
    assertThat(browser.findElements(By.id("sign-in"))).as("never sent to sign in").isEmpty();
    assertThat(chromium.await(By.id("who")).getText()).isEqualTo("alice@example.test (operator)");

    int calls = bearerTokens.size();
    browser.get(node.uri() + "/#/cluster");
    chromium.await(By.id("who"));
    chromium.waiting().until(driver -> bearerTokens.size() > calls);
    assertThat(bearerTokens.subList(calls, bearerTokens.size()))
        .as("later calls carry the new token")
        .containsOnly(issued.get(issued.size() - 1));
  }

  @Test
  void a_token_the_node_refuses_while_the_identity_provider_is_down_is_renewed_when_it_is_back() {
    giveRefreshTokens = true;
    firstTokenForAnotherAudience = true;
    outages.add(Outage.UNAVAILABLE);
    int before = refreshRequests().size();
    signInWithTheIssuer();

    awaitSignedInAsAlice();
    assertThat(refreshRequests())
        .as("the renewal on the node's 401 failed, the retry a second later came through")
        .hasSize(before + 2);
    assertThat(stored("baton.token")).isEqualTo(issued.get(issued.size() - 1));
    assertThat(browser.findElements(By.id("sign-in"))).isEmpty();
    assertThat(browser.findElement(By.id("renewal")).isDisplayed()).isFalse();
  }

  @Test
  void an_identity_provider_that_comes_back_and_refuses_the_refresh_token_signs_out() {
    giveRefreshTokens = true;
    accessTokenSeconds = 8; // renewed at 6 s, and again a second later
    outages.addAll(List.of(Outage.UNAVAILABLE, Outage.REFUSED));
    signInWithTheIssuer();
    awaitSignedInAsAlice();
    int before = refreshRequests().size();

    WebElement reason =
        waitingLong().until(ExpectedConditions.visibilityOfElementLocated(By.id("sign-in-reason")));
    assertThat(reason.getText())
        .contains("could not be renewed")
        .contains("Client disabled")
        .contains("Sign in again");
    assertThat(refreshRequests())
        .as("the 503 was tried again, the refusal not")
        .hasSize(before + 2);
    assertThat(stored("baton.token")).isNull();
    assertThat(stored("baton.refresh")).isNull();
    assertThat(browser.findElement(By.id("renewal")).isDisplayed()).isFalse();
  }

  @Test
  void an_access_token_that_expires_while_the_identity_provider_is_down_signs_out() {
    giveRefreshTokens = true;
    accessTokenSeconds = 4; // renewed at 3 s, again at 4 s when it expires
    signInWithTheIssuer();
    awaitSignedInAsAlice();
    unreachTokenHost();

    WebElement reason = chromium.await(By.id("sign-in-reason"));
    assertThat(Duration.ofNanos(System.nanoTime() - lastIssuedNanos))
        .as("signed out when the token expired, not at the first failure (3 s)")
        .isGreaterThanOrEqualTo(Duration.ofSeconds(4));
    assertThat(reason.getText())
        .contains("Your sign-in expired and could not be renewed")
        .contains("could not be reached")
        .contains("Sign in again");
    assertThat(stored("baton.token")).isNull();
    assertThat(stored("baton.refresh")).isNull();
  }
}

package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
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
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The dashboard signs in with the organisation's identity provider, in real headless Chromium: the
 * authorization-code flow with PKCE against a small identity provider this test serves (discovery
 * document, authorization endpoint that signs "alice" in at once, token endpoint that checks the
 * code, the redirect URI and the verifier against the S256 challenge, JWKS with the key that signs
 * its tokens). The dashboard comes back signed in as the token's subject with its role, the code is
 * gone from the address, the token is in sessionStorage only; an answer whose state this tab did
 * not ask for is refused without asking for a token.
 */
class DashboardOidcSignInBrowserTest extends ApiTestBase {
  private static final String AUDIENCE = "baton-api";
  private static final String CLIENT = "baton-dashboard";

  private final RSAKey key = generate();
  private final String adminToken = ApiTokens.generate();

  /** Codes the authorization endpoint gave: code to {challenge, redirect_uri, client_id}. */
  private final Map<String, Map<String, String>> codes = new ConcurrentHashMap<>();

  private final List<String> authorizations = new CopyOnWriteArrayList<>();
  private final List<Map<String, String>> tokenRequests = new CopyOnWriteArrayList<>();
  private HttpServer idp;
  private HeadlessChromium chromium;
  private WebDriver browser;

  private static RSAKey generate() {
    try {
      return new RSAKeyGenerator(2048).keyID("idp").generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private String issuer() {
    if (idp == null) {
      try {
        idp = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      idp.createContext("/realms/baton/", this::identityProvider);
      idp.start();
    }
    return "http://127.0.0.1:" + idp.getAddress().getPort() + "/realms/baton";
  }

  private void identityProvider(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String base = issuer();
    if (path.endsWith("/.well-known/openid-configuration")) {
      send(
          exchange,
          200,
          "{\"issuer\": \""
              + base
              + "\", \"authorization_endpoint\": \""
              + base
              + "/auth\", \"token_endpoint\": \""
              + base
              + "/token\", \"jwks_uri\": \""
              + base
              + "/certs\"}");
    } else if (path.endsWith("/certs")) {
      send(exchange, 200, new JWKSet(key.toPublicJWK()).toString(true));
    } else if (path.endsWith("/auth")) {
      authorize(exchange);
    } else if (path.endsWith("/token") && "POST".equals(exchange.getRequestMethod())) {
      token(exchange);
    } else {
      send(exchange, 404, "{\"error\": \"not_found\"}");
    }
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

  /** The token endpoint: the code once, for the same client and redirect URI, and PKCE. */
  private void token(HttpExchange exchange) throws IOException {
    Map<String, String> body =
        form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    tokenRequests.add(body);
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
    send(
        exchange,
        200,
        "{\"access_token\": \""
            + accessToken("alice@example.test", "operator")
            + "\", \"token_type\": \"Bearer\", \"expires_in\": 300}");
  }

  private String accessToken(String subject, String role) {
    Instant now = Instant.now();
    try {
      SignedJWT jwt =
          new SignedJWT(
              new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(),
              new JWTClaimsSet.Builder()
                  .issuer(issuer())
                  .audience(AUDIENCE)
                  .subject(subject)
                  .issueTime(Date.from(now))
                  .expirationTime(Date.from(now.plusSeconds(300)))
                  .claim("roles", List.of(role))
                  .build());
      jwt.sign(new RSASSASigner(key));
      return jwt.serialize();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String s256(String verifier) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, String> form(String encoded) {
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

  /** A JSON answer the dashboard's page (another origin) may read. */
  private static void send(HttpExchange exchange, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.getResponseHeaders().add("Access-Control-Allow-Origin", "*");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  protected Authenticator authenticator() {
    try {
      Path file = Files.createTempFile("baton-keys", ".yaml");
      Files.writeString(
          file,
          "keys:\n  - {name: root, role: admin, hash: \"" + ApiTokens.hash(adminToken) + "\"}\n");
      return new BearerTokens(
          ApiKeys.load(file, SystemScheduler.systemClock()),
          new OidcTokens(
              new OidcSettings(
                  issuer(),
                  AUDIENCE,
                  null,
                  OidcSettings.DEFAULT_ROLE_CLAIM,
                  OidcSettings.DEFAULT_NAME_CLAIM,
                  OidcSettings.DEFAULT_JWKS_CACHE_TTL,
                  Duration.ofMillis(100)),
              SystemScheduler.systemClock()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
      idp.stop(0);
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
    assertThat(button.getText()).isEqualTo("Sign in with 127.0.0.1:" + idp.getAddress().getPort());
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
}

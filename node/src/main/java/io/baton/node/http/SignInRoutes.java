package io.baton.node.http;

import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /api/sign-in}: how a person may sign in to this node's dashboard, public so that the
 * dashboard can ask before anyone has signed in. Always {@code key} (an API key); {@code oidc} (the
 * issuer, the dashboard's client id and the scope) when an issuer and a client id are configured,
 * for the authorization-code flow with PKCE that the dashboard runs in the browser. Nothing secret:
 * a public client has no secret.
 */
final class SignInRoutes implements Routes {
  private final DashboardSignIn oidc;

  SignInRoutes(DashboardSignIn oidc) {
    this.oidc = oidc;
  }

  @Override
  public void addTo(ApiRouter routes) {
    routes
        .get("/api/sign-in", this::signIn)
        .permission(Permission.PUBLIC)
        .summary("How to sign in to the dashboard: an API key, and OIDC when configured")
        .responds(200, "the sign-in methods");
  }

  private void signIn(Context ctx) {
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("key", true);
    if (oidc != null) {
      answer.put(
          "oidc",
          Map.of("issuer", oidc.issuer(), "clientId", oidc.clientId(), "scope", oidc.scope()));
    } else {
      answer.put("oidc", null);
    }
    Json.send(ctx, 200, answer);
  }
}

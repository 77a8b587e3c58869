package io.baton.node.http;

import io.baton.node.auth.Authenticator;
import io.baton.node.auth.Principal;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code GET /api/me}: who the caller is and what it may do, from the same table the guard
 * enforces: its role, the permissions of the route table it holds ({@code runs.resume}, ...) and
 * the routes they open. The dashboard hides what is not listed.
 */
final class MeRoutes implements Routes {
  private final Supplier<RoutePermissions> permissions;
  private final Authenticator authenticator;
  private final boolean metricsOpen;

  MeRoutes(
      Supplier<RoutePermissions> permissions, Authenticator authenticator, boolean metricsOpen) {
    this.permissions = permissions;
    this.authenticator = authenticator;
    this.metricsOpen = metricsOpen;
  }

  @Override
  public void addTo(ApiRouter routes) {
    routes
        .get("/api/me", this::me)
        .permission(Permission.RUNS_READ, FlowScope.NONE)
        .summary("The caller: name, role, how it signed in, its flows and its permissions")
        .responds(200, "the caller and what it may do");
  }

  private void me(Context ctx) {
    Principal principal = AccessGuard.principal(ctx);
    List<String> held = new ArrayList<>();
    for (Permission permission : Permission.values()) {
      if (permission != Permission.PUBLIC && allows(principal, permission)) {
        held.add(permission.id());
      }
    }
    List<String> routes = new ArrayList<>();
    for (Map.Entry<String, RoutePermissions.Rule> route : permissions.get().rules().entrySet()) {
      RoutePermissions.Rule rule = route.getValue();
      if (!route.getKey().contains(" " + ApiRouter.API) || route.getKey().contains(ApiRouter.V1)) {
        if (rule.isPublic() || principal.role().allows(rule.permission())) {
          routes.add(route.getKey());
        }
      }
    }
    Json.send(
        ctx,
        200,
        Json.object(
            "name", principal.name(),
            "role", principal.role().displayName(),
            "via", principal.via().displayName(),
            "authentication", authenticator.required() ? "required" : "off",
            "flows", principal.flowPatterns(),
            "permissions", held,
            "routes", routes));
  }

  private boolean allows(Principal principal, Permission permission) {
    RoutePermissions.Rule rule = RoutePermissions.rule(permission, FlowScope.NONE, metricsOpen);
    return rule.isPublic() || principal.role().allows(rule.permission());
  }
}

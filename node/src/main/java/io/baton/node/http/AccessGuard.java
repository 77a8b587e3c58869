package io.baton.node.http;

import io.baton.engine.Orchestrator;
import io.baton.node.auth.Authenticator;
import io.baton.node.auth.Permission;
import io.baton.node.auth.Principal;
import io.baton.node.auth.Role;
import io.baton.store.RunRecord;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.router.Endpoint;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Checks every matched call before its handler runs: the route's {@link RoutePermissions.Rule}, the
 * caller's bearer token ({@link Authenticator}), the role's permission and, for keys limited to
 * flow patterns, the flow the call acts on. A route without a rule is refused (deny by default).
 * The principal is left on the context for handlers ({@link #principal}). Thread-safe.
 */
final class AccessGuard {
  private static final String PRINCIPAL = "baton.principal";
  private static final String BEARER = "Bearer ";
  private static final String READABLE_RUNS = "baton.readableRuns";

  private final Authenticator authenticator;
  private final RoutePermissions permissions;
  private final Orchestrator orchestrator;
  private final RootFlows rootFlows;

  AccessGuard(
      Authenticator authenticator,
      RoutePermissions permissions,
      Orchestrator orchestrator,
      RootFlows rootFlows) {
    this.authenticator = authenticator;
    this.permissions = permissions;
    this.orchestrator = orchestrator;
    this.rootFlows = rootFlows;
  }

  void register(RoutesConfig routes) {
    routes.beforeMatched(this::check);
  }

  /** The caller of this request; {@link Principal#ANONYMOUS} when authentication is off. */
  static Principal principal(Context ctx) {
    Principal principal = ctx.attribute(PRINCIPAL);
    return principal == null ? Principal.ANONYMOUS : principal;
  }

  /**
   * Refuses the call unless its caller may act on {@code flowName}: for routes whose flow is in the
   * body ({@link FlowScope#BODY}), called by the route once it has read it.
   */
  static void requireFlow(Context ctx, String flowName) {
    Principal principal = principal(ctx);
    if (!principal.flows().matches(flowName)) {
      throw new AccessDeniedException(
          limited(principal) + " and may not act on flow '" + flowName + "'");
    }
  }

  private void check(Context ctx) {
    Endpoint endpoint = ctx.endpoints().matchedHttpEndpoint();
    if (endpoint == null) {
      return;
    }
    String route = RoutePermissions.key(endpoint.method.name(), endpoint.path);
    RoutePermissions.Rule rule =
        permissions
            .rule(endpoint.method.name(), endpoint.path)
            .orElseThrow(
                () ->
                    new AccessDeniedException(
                        route + " has no permission in the node's route table: refused to all"));
    if (rule.isPublic()) {
      return;
    }
    Principal principal = authenticator.authenticate(bearer(ctx));
    ctx.attribute(PRINCIPAL, principal);
    if (!principal.role().allows(rule.permission())) {
      throw new AccessDeniedException(
          "'"
              + principal.name()
              + "' (role "
              + principal.role().displayName()
              + ") may not "
              + route
              + ": it needs permission "
              + rule.permission().displayName()
              + ", which role "
              + lowestRoleWith(rule.permission()).displayName()
              + " and above have");
    }
    if (principal.flows().limited()) {
      checkScope(ctx, principal, rule.scope(), route);
    }
  }

  private void checkScope(Context ctx, Principal principal, FlowScope scope, String route) {
    switch (scope) {
      case ALL_FLOWS ->
          throw new AccessDeniedException(limited(principal) + "; " + route + " spans every flow");
      case RUN -> runScope(ctx, principal);
      case FLOW -> requireFlow(ctx, ctx.pathParam("name"));
      case RUN_LIST -> listScope(ctx, principal);
      case RUN_STREAM -> streamScope(ctx, principal);
      case BODY, NONE -> {
        // BODY: the route checks the flow named in the body once it has read it
      }
    }
  }

  /**
   * The runs a stream may send this request's caller: all for keys not limited to flow patterns;
   * else those it may read ({@link #mayRead}, as for {@link FlowScope#RUN}): the runs of its flows
   * and every run, subflows of other flows included, of a tree whose root's flow is one of its.
   */
  static Predicate<RunRecord> readableRuns(Context ctx) {
    Predicate<RunRecord> readable = ctx.attribute(READABLE_RUNS);
    return readable == null ? run -> true : readable;
  }

  /** A list of runs of one of the key's flows, or of a tree whose root's flow is one of them. */
  private void listScope(Context ctx, Principal principal) {
    if (readableTree(ctx, principal)) {
      return;
    }
    String flow = ctx.queryParam("flow");
    if (flow == null || flow.isBlank()) {
      throw new AccessDeniedException(
          limited(principal)
              + "; list runs with ?flow=NAME of one of them or ?root=ID of a run of one of them");
    }
    requireFlow(ctx, flow);
  }

  private void streamScope(Context ctx, Principal principal) {
    if (readableTree(ctx, principal)) {
      return; // the whole tree: every run the stream's ?root= lets through
    }
    String flow = ctx.queryParam("flow");
    if (flow != null && !flow.isBlank()) {
      requireFlow(ctx, flow);
    }
    ctx.attribute(READABLE_RUNS, (Predicate<RunRecord>) run -> mayRead(principal, run));
  }

  /** Whether {@code ?root=} names a root run of one of the key's flows: its tree is readable. */
  private boolean readableTree(Context ctx, Principal principal) {
    String text = ctx.queryParam("root");
    if (text == null || text.isBlank()) {
      return false;
    }
    UUID root;
    try {
      root = UUID.fromString(text.trim());
    } catch (IllegalArgumentException e) {
      return false; // the route answers 400 for a malformed root
    }
    return rootFlows.of(root).filter(principal.flows()::matches).isPresent();
  }

  /**
   * The one rule of a limited key's reach over runs, for every route: a run whose own flow or whose
   * root's flow is one of the key's (a key that may read a root reads its whole tree).
   */
  private boolean mayRead(Principal principal, RunRecord run) {
    if (principal.flows().matches(run.flowName())) {
      return true;
    }
    return !run.isRoot()
        && rootFlows.of(run.rootRunId()).filter(principal.flows()::matches).isPresent();
  }

  /** A run may be acted on when the key may read it ({@link #mayRead}). */
  private void runScope(Context ctx, Principal principal) {
    UUID runId;
    try {
      runId = UUID.fromString(ctx.pathParam("id"));
    } catch (IllegalArgumentException e) {
      return; // the route answers 400 for a malformed id
    }
    RunRecord run = orchestrator.find(runId);
    if (mayRead(principal, run)) {
      return;
    }
    throw new AccessDeniedException(
        limited(principal)
            + " and may not act on run "
            + runId
            + " of flow '"
            + run.flowName()
            + "'");
  }

  private static String limited(Principal principal) {
    return "'" + principal.name() + "' is limited to flows " + principal.flows();
  }

  private static Role lowestRoleWith(Permission permission) {
    for (Role role : Role.values()) {
      if (role.allows(permission)) {
        return role;
      }
    }
    return Role.ADMIN;
  }

  private static String bearer(Context ctx) {
    String header = ctx.header("Authorization");
    if (header == null) {
      return null;
    }
    if (header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return header.substring(BEARER.length()).trim();
    }
    return null;
  }
}

package io.baton.node.http;

import io.baton.node.auth.Permission;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The permission every route requires, keyed by {@code "METHOD /path/{param}"} exactly as the route
 * is registered (both {@code /api/v1/...} and its deprecated alias), derived from the route table.
 * Deny by default: a route with no entry is refused to everyone, and {@link HttpApi} refuses to
 * start while any registered route lacks one (so a new route without a permission fails every API
 * test). Immutable.
 */
public final class RoutePermissions {
  /** What one route requires; a null permission means public (no authentication). */
  public record Rule(Permission permission, FlowScope scope) {
    public static Rule open() {
      return new Rule(null, FlowScope.NONE);
    }

    public boolean isPublic() {
      return permission == null;
    }
  }

  private final Map<String, Rule> rules;

  private RoutePermissions(Map<String, Rule> rules) {
    this.rules = Map.copyOf(rules);
  }

  /**
   * The rules of {@code operations}, each at its versioned path and at its deprecated alias, from
   * the permission each route declares in the {@link ApiRouter} table (the one permission model:
   * the table's {@link io.baton.node.http.Permission} is what {@link AccessGuard} enforces and what
   * the OpenAPI document shows). A route that declared none gets no rule, so {@link HttpApi}
   * refuses to start.
   *
   * @param metricsOpen whether {@code /metrics} is public; else it needs {@code metrics.read}
   */
  static RoutePermissions of(List<ApiOperation> operations, boolean metricsOpen) {
    Map<String, Rule> rules = new LinkedHashMap<>();
    for (ApiOperation operation : operations) {
      if (operation.permission() == null) {
        continue;
      }
      Rule rule = rule(operation.permission(), operation.scope(), metricsOpen);
      String method = operation.method().name();
      rules.put(key(method, ApiRouter.versioned(operation.path())), rule);
      rules.put(key(method, operation.path()), rule);
    }
    return new RoutePermissions(rules);
  }

  /** A route's declared permission as the roles see it. */
  static Rule rule(io.baton.node.http.Permission declared, FlowScope scope, boolean metricsOpen) {
    Permission permission =
        switch (declared) {
          case PUBLIC -> null;
          case RUNS_READ -> Permission.RUNS_READ;
          case RUNS_SUBMIT -> Permission.RUNS_SUBMIT;
          case RUNS_CANCEL -> Permission.RUNS_CANCEL;
          case RUNS_RESUME -> Permission.RUNS_RESUME;
          case RUNS_ANSWER -> Permission.RUNS_ANSWER;
          case RUNS_DISCARD -> Permission.RUNS_DISCARD;
          case FLOWS_READ -> Permission.FLOWS_READ;
          case FLOWS_WRITE -> Permission.FLOWS_APPLY;
          case EVENTS_SEND -> Permission.EVENTS_EMIT;
          case EVENTS_READ, CLUSTER_READ -> Permission.CLUSTER_READ;
          case CLUSTER_ADMIN, KEYS_MANAGE, AUDIT_READ -> Permission.ADMIN;
          case METRICS_READ -> metricsOpen ? null : Permission.METRICS_READ;
        };
    return permission == null ? Rule.open() : new Rule(permission, scope);
  }

  /** This table with {@code rule} for {@code route} ({@code "METHOD /path"}) added or replaced. */
  public RoutePermissions with(String route, Rule rule) {
    Map<String, Rule> more = new LinkedHashMap<>(rules);
    more.put(route, rule);
    return new RoutePermissions(more);
  }

  /** This table without {@code route}: such a table keeps {@link HttpApi} from starting. */
  public RoutePermissions without(String route) {
    Map<String, Rule> fewer = new LinkedHashMap<>(rules);
    fewer.remove(route);
    return new RoutePermissions(fewer);
  }

  public Optional<Rule> rule(String method, String pathTemplate) {
    return Optional.ofNullable(rules.get(key(method, pathTemplate)));
  }

  /** The routes of {@code registered} ({@code "METHOD /path"}) that have no rule. */
  public List<String> missing(Collection<String> registered) {
    List<String> missing = new ArrayList<>();
    for (String route : registered) {
      if (!rules.containsKey(route)) {
        missing.add(route);
      }
    }
    return missing;
  }

  public Map<String, Rule> rules() {
    return rules;
  }

  static String key(String method, String pathTemplate) {
    return method + " " + pathTemplate;
  }
}

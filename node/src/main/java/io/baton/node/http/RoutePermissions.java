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
 * is registered. Deny by default: a route with no entry is refused to everyone, and {@link HttpApi}
 * refuses to start while any registered route lacks one (so a new route without a permission fails
 * every API test). Immutable.
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
   * The node's routes.
   *
   * @param metricsOpen whether {@code /metrics} is public; else it needs {@code metrics.read}
   */
  public static RoutePermissions defaults(boolean metricsOpen) {
    Map<String, Rule> rules = new LinkedHashMap<>();
    rules.put("POST /api/flows", new Rule(Permission.FLOWS_APPLY, FlowScope.BODY));
    rules.put("GET /api/flows", new Rule(Permission.FLOWS_READ, FlowScope.ALL_FLOWS));
    rules.put("GET /api/flows/{name}", new Rule(Permission.FLOWS_READ, FlowScope.FLOW));
    rules.put("POST /api/runs", new Rule(Permission.RUNS_SUBMIT, FlowScope.BODY));
    rules.put("GET /api/runs", new Rule(Permission.RUNS_READ, FlowScope.RUN_LIST));
    rules.put("GET /api/runs/{id}", new Rule(Permission.RUNS_READ, FlowScope.RUN));
    rules.put("GET /api/runs/{id}/journal", new Rule(Permission.RUNS_READ, FlowScope.RUN));
    rules.put("POST /api/runs/{id}/cancel", new Rule(Permission.RUNS_CANCEL, FlowScope.RUN));
    rules.put("POST /api/runs/{id}/resume", new Rule(Permission.RUNS_RESUME, FlowScope.RUN));
    rules.put("POST /api/runs/{id}/approve", new Rule(Permission.RUNS_ANSWER, FlowScope.RUN));
    rules.put("POST /api/runs/{id}/reject", new Rule(Permission.RUNS_ANSWER, FlowScope.RUN));
    rules.put(
        "GET /api/recovery/incomplete", new Rule(Permission.CLUSTER_READ, FlowScope.ALL_FLOWS));
    rules.put("GET /api/cluster", new Rule(Permission.CLUSTER_READ, FlowScope.ALL_FLOWS));
    rules.put("GET /api/version", new Rule(Permission.CLUSTER_READ, FlowScope.NONE));
    rules.put("GET /api/stream", new Rule(Permission.CLUSTER_READ, FlowScope.ALL_FLOWS));
    rules.put("GET /health/live", Rule.open());
    rules.put("GET /health/ready", Rule.open());
    rules.put(
        "GET /metrics",
        metricsOpen ? Rule.open() : new Rule(Permission.METRICS_READ, FlowScope.NONE));
    return new RoutePermissions(rules);
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

package io.baton.node.http;

import io.javalin.security.RouteRole;

/**
 * What a route lets its caller do, attached to the route as its Javalin {@link RouteRole} (read it
 * with {@code ctx.routeRoles()} in a {@code beforeMatched} handler) and written into the OpenAPI
 * document as {@code x-permission}. The API itself checks nothing: this is the hook an
 * authorization layer maps to roles.
 */
public enum Permission implements RouteRole {
  /** Health and the API description: open to anyone who reaches the port. */
  PUBLIC("public"),
  RUNS_READ("runs.read"),
  RUNS_SUBMIT("runs.submit"),
  RUNS_CANCEL("runs.cancel"),
  RUNS_RESUME("runs.resume"),
  RUNS_ANSWER("runs.answer"),
  RUNS_DISCARD("runs.discard"),
  FLOWS_READ("flows.read"),
  FLOWS_WRITE("flows.write"),
  EVENTS_SEND("events.send"),
  EVENTS_READ("events.read"),
  CLUSTER_READ("cluster.read"),
  CLUSTER_ADMIN("cluster.admin"),
  KEYS_MANAGE("keys.manage"),
  AUDIT_READ("audit.read"),
  METRICS_READ("metrics.read");

  private final String id;

  Permission(String id) {
    this.id = id;
  }

  /** The stable name, such as {@code runs.read}. */
  public String id() {
    return id;
  }
}

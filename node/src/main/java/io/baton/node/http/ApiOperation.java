package io.baton.node.http;

import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One route of the API and what the OpenAPI document says about it: method, path, permission, a
 * summary, its query and header parameters and every status it answers with. Built by {@link
 * ApiRouter}'s {@code get}/{@code post} and completed by chained calls before the server starts;
 * not thread-safe until then.
 */
final class ApiOperation {
  /** A parameter: name, where it goes ({@code query} or {@code header}), type, what it means. */
  record Param(String name, String in, String type, String description) {
    /** A query parameter. */
    Param(String name, String type, String description) {
      this(name, "query", type, description);
    }
  }

  private final HandlerType method;
  private final String path;
  private final Handler handler;
  private Permission permission;
  private FlowScope scope;
  private String summary;
  private final List<Param> params = new ArrayList<>();
  private final Map<Integer, String> responses = new TreeMap<>();
  private String produces = Json.CONTENT_TYPE;

  ApiOperation(HandlerType method, String path, Handler handler) {
    this.method = method;
    this.path = path;
    this.handler = handler;
    this.summary = method + " " + path;
  }

  /**
   * What the caller needs. Every route must declare one: {@link RoutePermissions} refuses a table
   * with a route without (deny by default). Limited keys: {@link FlowScope#NONE} for public routes,
   * else {@link FlowScope#ALL_FLOWS} (refused to keys limited to flow patterns).
   */
  ApiOperation permission(Permission permission) {
    return permission(
        permission, permission == Permission.PUBLIC ? FlowScope.NONE : FlowScope.ALL_FLOWS);
  }

  /** What the caller needs, and which flow the call acts on for keys limited to flow patterns. */
  ApiOperation permission(Permission permission, FlowScope scope) {
    this.permission = Objects.requireNonNull(permission);
    this.scope = Objects.requireNonNull(scope);
    return this;
  }

  ApiOperation summary(String summary) {
    this.summary = summary;
    return this;
  }

  ApiOperation query(String name, String type, String description) {
    params.add(new Param(name, type, description));
    return this;
  }

  /** An optional request header the route reads. */
  ApiOperation header(String name, String description) {
    params.add(new Param(name, "header", "string", description));
    return this;
  }

  /** Statuses and their meaning, in pairs: {@code 200, "the run", 404, "no such run"}. */
  ApiOperation responds(Object... statusesAndDescriptions) {
    for (int i = 0; i < statusesAndDescriptions.length; i += 2) {
      responses.put((Integer) statusesAndDescriptions[i], (String) statusesAndDescriptions[i + 1]);
    }
    return this;
  }

  /** The media type of a successful answer ({@code application/json} unless set). */
  ApiOperation produces(String mediaType) {
    this.produces = mediaType;
    return this;
  }

  HandlerType method() {
    return method;
  }

  String path() {
    return path;
  }

  Handler handler() {
    return handler;
  }

  /** Null until declared. */
  Permission permission() {
    return permission;
  }

  FlowScope scope() {
    return scope;
  }

  String summary() {
    return summary;
  }

  List<Param> params() {
    return List.copyOf(params);
  }

  Map<Integer, String> responses() {
    return Map.copyOf(responses);
  }

  String produces() {
    return produces;
  }
}

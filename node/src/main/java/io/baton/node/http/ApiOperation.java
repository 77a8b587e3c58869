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
 * summary, its query parameters and every status it answers with. Built by {@link ApiRouter}'s
 * {@code get}/{@code post} and completed by chained calls before the server starts; not thread-safe
 * until then.
 */
final class ApiOperation {
  /** A query parameter: name, JSON schema type, and what it means. */
  record Param(String name, String type, String description) {}

  private final HandlerType method;
  private final String path;
  private final Handler handler;
  private Permission permission;
  private String summary;
  private final List<Param> params = new ArrayList<>();
  private final Map<Integer, String> responses = new TreeMap<>();
  private String produces = Json.CONTENT_TYPE;

  ApiOperation(HandlerType method, String path, Handler handler) {
    this.method = method;
    this.path = path;
    this.handler = handler;
    this.permission =
        method.equals(HandlerType.GET) ? Permission.RUNS_READ : Permission.RUNS_SUBMIT;
    this.summary = method + " " + path;
  }

  ApiOperation permission(Permission permission) {
    this.permission = Objects.requireNonNull(permission);
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

  Permission permission() {
    return permission;
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

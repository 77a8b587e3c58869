package io.baton.node.http;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import io.javalin.security.RouteRole;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The API's route table. Each {@link Routes} declares its endpoints here with their permission and
 * documentation; {@link #registerAll} then serves every path under {@code /api/} at its versioned
 * form {@code /api/v1/...} and, during the deprecation period, at the old unversioned path too,
 * answering there with a {@code Deprecation} header and a {@code Link} to the successor. Paths
 * outside {@code /api/} (health, metrics) are served as declared. The same table generates the
 * OpenAPI document ({@link OpenApi}). Not thread-safe: used while the server is configured.
 */
final class ApiRouter {
  static final String API = "/api/";
  static final String V1 = "/api/v1/";

  private final List<ApiOperation> operations = new ArrayList<>();

  ApiOperation get(String path, Handler handler) {
    return add(HandlerType.GET, path, handler);
  }

  ApiOperation post(String path, Handler handler) {
    return add(HandlerType.POST, path, handler);
  }

  ApiOperation put(String path, Handler handler) {
    return add(HandlerType.PUT, path, handler);
  }

  ApiOperation delete(String path, Handler handler) {
    return add(HandlerType.DELETE, path, handler);
  }

  private ApiOperation add(HandlerType method, String path, Handler handler) {
    if (path.startsWith(V1)) {
      throw new IllegalArgumentException(
          "declare " + path + " without its version: the router adds /api/v1/");
    }
    ApiOperation operation = new ApiOperation(method, path, handler);
    operations.add(operation);
    return operation;
  }

  List<ApiOperation> operations() {
    return Collections.unmodifiableList(operations);
  }

  /** The path clients should use: {@code /api/v1/...} for API paths, others unchanged. */
  static String versioned(String path) {
    return path.startsWith(API) ? V1 + path.substring(API.length()) : path;
  }

  void registerAll(RoutesConfig routes) {
    for (ApiOperation operation : operations) {
      String current = versioned(operation.path());
      // A route without a permission is registered without a role: the guard refuses it to all
      // and HttpApi does not start (RoutePermissions has no rule for it).
      RouteRole[] roles =
          operation.permission() == null
              ? new RouteRole[0]
              : new RouteRole[] {operation.permission()};
      routes.addHttpHandler(operation.method(), current, operation.handler(), roles);
      if (!current.equals(operation.path())) {
        routes.addHttpHandler(
            operation.method(), operation.path(), deprecated(operation.handler(), current), roles);
      }
    }
  }

  private static Handler deprecated(Handler handler, String successor) {
    return ctx -> {
      markDeprecated(ctx, successor);
      handler.handle(ctx);
    };
  }

  private static void markDeprecated(Context ctx, String successor) {
    ctx.header("Deprecation", "true");
    ctx.header("Link", "<" + successor + ">; rel=\"successor-version\"");
  }
}

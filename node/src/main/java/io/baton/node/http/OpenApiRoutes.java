package io.baton.node.http;

import io.javalin.http.Context;
import java.util.Map;

/** {@code GET /api/v1/openapi.json}: the OpenAPI 3.1 document of every route in the table. */
final class OpenApiRoutes implements Routes {
  private final ApiRouter router;
  private final String version;

  OpenApiRoutes(ApiRouter router, String version) {
    this.router = router;
    this.version = version;
  }

  @Override
  public void addTo(ApiRouter routes) {
    routes
        .get("/api/openapi.json", this::document)
        .permission(Permission.PUBLIC)
        .summary("This document")
        .responds(200, "the OpenAPI 3.1 document");
  }

  private void document(Context ctx) {
    Map<String, Object> document = OpenApi.document(router.operations(), version);
    Json.send(ctx, 200, document);
  }
}

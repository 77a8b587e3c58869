package io.baton.node.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The OpenAPI 3.1 document of the API, generated from the route table ({@link ApiRouter}) so that
 * it cannot list a route the node does not serve or miss one it does. Served at {@code GET
 * /api/v1/openapi.json}.
 */
final class OpenApi {
  private static final Pattern PATH_PARAM = Pattern.compile("\\{([^}]+)}");

  private OpenApi() {}

  static Map<String, Object> document(List<ApiOperation> operations, String version) {
    Map<String, Object> paths = new LinkedHashMap<>();
    for (ApiOperation operation : operations) {
      @SuppressWarnings("unchecked")
      Map<String, Object> path =
          (Map<String, Object>)
              paths.computeIfAbsent(
                  ApiRouter.versioned(operation.path()), p -> new LinkedHashMap<String, Object>());
      path.put(operation.method().name().toLowerCase(Locale.ROOT), operation(operation));
    }
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("openapi", "3.1.0");
    document.put(
        "info",
        Json.object(
            "title",
            "Baton API",
            "version",
            version,
            "description",
            "Every path under /api/v1/ is also served, deprecated, without the version."));
    document.put("paths", paths);
    document.put("components", Json.object("schemas", Json.object("Problem", problemSchema())));
    return document;
  }

  private static Map<String, Object> operation(ApiOperation operation) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("operationId", operationId(operation));
    doc.put("summary", operation.summary());
    doc.put("x-permission", operation.permission().id());
    List<Object> parameters = new ArrayList<>();
    Matcher matcher = PATH_PARAM.matcher(operation.path());
    while (matcher.find()) {
      parameters.add(
          Json.object(
              "name",
              matcher.group(1),
              "in",
              "path",
              "required",
              true,
              "schema",
              Json.object("type", "string")));
    }
    for (ApiOperation.Param param : operation.params()) {
      parameters.add(
          Json.object(
              "name",
              param.name(),
              "in",
              param.in(),
              "description",
              param.description(),
              "schema",
              Json.object("type", param.type())));
    }
    if (!parameters.isEmpty()) {
      doc.put("parameters", parameters);
    }
    Map<String, Object> responses = new LinkedHashMap<>();
    operation.responses().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            response ->
                responses.put(
                    Integer.toString(response.getKey()),
                    response(response.getKey(), response.getValue(), operation.produces())));
    doc.put("responses", responses);
    return doc;
  }

  private static Map<String, Object> response(int status, String description, String produces) {
    if (status >= 400) {
      return Json.object(
          "description",
          description,
          "content",
          Json.object(
              Problem.CONTENT_TYPE,
              Json.object("schema", Json.object("$ref", "#/components/schemas/Problem"))));
    }
    return Json.object("description", description, "content", Json.object(produces, Map.of()));
  }

  private static String operationId(ApiOperation operation) {
    StringBuilder id = new StringBuilder(operation.method().name().toLowerCase(Locale.ROOT));
    for (String part : ApiRouter.versioned(operation.path()).split("[/{}.-]+", -1)) {
      if (!part.isEmpty() && !part.equals("api") && !part.equals("v1")) {
        id.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
      }
    }
    return id.toString();
  }

  private static Map<String, Object> problemSchema() {
    return Json.object(
        "type",
        "object",
        "required",
        List.of("type", "title", "status", "detail"),
        "properties",
        Json.object(
            "type", Json.object("type", "string"),
            "title", Json.object("type", "string"),
            "status", Json.object("type", "integer"),
            "detail", Json.object("type", "string"),
            "errors", Json.object("type", "array")));
  }
}

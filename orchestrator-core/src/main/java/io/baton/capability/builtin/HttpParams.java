package io.baton.capability.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.capability.Capability.ParamProblem;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The params of {@code http}: {@code url} (required, absolute http or https), {@code headers} (a
 * mapping of names to strings), {@code query} (a mapping of names to scalars or lists of scalars),
 * {@code body} (any JSON), {@code followRedirects} (a boolean, default false: a 3xx completes the
 * step with its {@code Location}; true: up to {@value HttpCapability#MAX_REDIRECTS} redirects are
 * followed, each judged by the egress policy), {@code idempotencyKey} (a string sent as {@code
 * Idempotency-Key} instead of the run id and step name: a flow that delivers events to a webhook
 * sends {@code "{{ event.id }}"}, so the receiver sees the event's own id however often it is
 * delivered). A value holding a template is only checked once rendered.
 */
final class HttpParams {
  static final List<String> KEYS =
      List.of("url", "headers", "query", "body", "followRedirects", "idempotencyKey");
  static final int MAX_IDEMPOTENCY_KEY = 255;
  private static final Set<String> SET_BY_CLIENT =
      Set.of("connection", "content-length", "expect", "host", "upgrade");

  private HttpParams() {}

  static List<ParamProblem> check(JsonNode params) {
    ParamChecks checks = new ParamChecks(HttpCapability.NAME);
    if (checks.mapping(params, KEYS)) {
      url(params, checks);
      headers(params.get("headers"), checks);
      query(params.get("query"), checks);
      idempotencyKey(params.get("idempotencyKey"), checks);
      JsonNode follow = params.get("followRedirects");
      if (follow != null && !follow.isBoolean() && !ParamChecks.isTemplate(follow)) {
        checks.add("followRedirects", "followRedirects is true or false, not " + follow);
      }
    }
    return checks.problems();
  }

  private static void url(JsonNode params, ParamChecks checks) {
    String url = checks.requiredText(params, "url", "the url to call, such as https://host/path");
    if (url == null || ParamChecks.isTemplate(params.get("url"))) {
      return;
    }
    try {
      HttpRequests.uri(url);
    } catch (IllegalArgumentException e) {
      checks.add("url", e.getMessage());
    }
  }

  private static void headers(JsonNode headers, ParamChecks checks) {
    if (headers == null || ParamChecks.isTemplate(headers)) {
      return;
    }
    if (!headers.isObject()) {
      checks.add("headers", "headers must be a mapping of names to strings");
      return;
    }
    for (Map.Entry<String, JsonNode> header : headers.properties()) {
      String field = "headers." + header.getKey();
      String name = header.getKey().toLowerCase(Locale.ROOT);
      if (!header.getValue().isTextual()) {
        checks.add(field, "header values must be strings; quote " + header.getValue());
      } else if (SET_BY_CLIENT.contains(name)) {
        checks.add(field, "header '" + header.getKey() + "' is set by the HTTP client");
      } else if (name.equals(HttpRequests.IDEMPOTENCY_KEY.toLowerCase(Locale.ROOT))) {
        checks.add(
            field,
            "Baton sends Idempotency-Key itself (the run id and step name); set the param"
                + " idempotencyKey to send another");
      }
    }
  }

  private static void idempotencyKey(JsonNode key, ParamChecks checks) {
    if (key == null || ParamChecks.isTemplate(key)) {
      return;
    }
    if (!key.isTextual() || key.textValue().isBlank()) {
      checks.add("idempotencyKey", "idempotencyKey must be a non-blank string, not " + key);
    } else if (key.textValue().length() > MAX_IDEMPOTENCY_KEY) {
      checks.add(
          "idempotencyKey",
          "idempotencyKey is at most "
              + MAX_IDEMPOTENCY_KEY
              + " characters, got "
              + key.textValue().length());
    } else if (key.textValue().chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      checks.add("idempotencyKey", "idempotencyKey must not hold control characters");
    }
  }

  private static void query(JsonNode query, ParamChecks checks) {
    if (query == null || ParamChecks.isTemplate(query)) {
      return;
    }
    if (!query.isObject()) {
      checks.add("query", "query must be a mapping of names to values");
      return;
    }
    for (Map.Entry<String, JsonNode> parameter : query.properties()) {
      if (!isScalarOrList(parameter.getValue())) {
        checks.add(
            "query." + parameter.getKey(),
            "query values must be strings, numbers, booleans or lists of them");
      }
    }
  }

  private static boolean isScalarOrList(JsonNode value) {
    if (value.isArray()) {
      for (JsonNode element : value) {
        if (!element.isValueNode() || element.isNull()) {
          return false;
        }
      }
      return true;
    }
    return value.isValueNode() && !value.isNull();
  }
}

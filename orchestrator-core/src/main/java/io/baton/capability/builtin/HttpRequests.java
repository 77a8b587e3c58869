package io.baton.capability.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.capability.Invocation;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/** Builds the request for one {@code http} invocation from its rendered, checked params. */
final class HttpRequests {
  static final String IDEMPOTENCY_KEY = "Idempotency-Key";
  static final String TRACEPARENT = "traceparent";

  private HttpRequests() {}

  /**
   * The request; {@code timeout} is null for none.
   *
   * @throws IllegalArgumentException when the params do not make a valid request
   */
  static HttpRequest build(Invocation invocation, Duration timeout) {
    JsonNode params = invocation.params();
    URI uri = withQuery(uri(params.get("url").textValue()), params.get("query"));
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .method(invocation.operation().toUpperCase(Locale.ROOT), body(params));
    JsonNode headers = params.get("headers");
    if (headers != null && headers.isObject()) {
      headers.properties().forEach(h -> request.header(h.getKey(), h.getValue().asText()));
    }
    if (params.has("body") && !hasHeader(headers, "content-type")) {
      request.header("Content-Type", "application/json");
    }
    JsonNode key = params.get("idempotencyKey");
    if (key != null && (!key.isTextual() || key.textValue().isBlank())) {
      throw new IllegalArgumentException("idempotencyKey must be a non-blank string, not " + key);
    }
    request.setHeader(IDEMPOTENCY_KEY, key != null ? key.textValue() : idempotencyKey(invocation));
    // A traceparent the flow sets itself wins: it says where the call belongs on purpose.
    if (invocation.traceparent() != null && !hasHeader(headers, TRACEPARENT)) {
      request.header(TRACEPARENT, invocation.traceparent());
    }
    if (timeout != null) {
      request.timeout(timeout);
    }
    return request.build();
  }

  /** An absolute http or https URI with a host. */
  static URI uri(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("'" + url + "' is not a valid url: " + e.getReason());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IllegalArgumentException("'" + url + "' is not an http or https url");
    }
    if (uri.getHost() == null) {
      throw new IllegalArgumentException("'" + url + "' names no host");
    }
    return uri;
  }

  private static BodyPublisher body(JsonNode params) {
    // Present means present: a body that rendered to null is still sent, as JSON null.
    return params.has("body")
        ? BodyPublishers.ofString(params.get("body").toString(), StandardCharsets.UTF_8)
        : BodyPublishers.noBody();
  }

  private static URI withQuery(URI uri, JsonNode query) {
    if (query == null || !query.isObject() || query.isEmpty()) {
      return uri;
    }
    StringJoiner pairs = new StringJoiner("&");
    for (Map.Entry<String, JsonNode> parameter : query.properties()) {
      if (parameter.getValue().isArray()) {
        parameter.getValue().forEach(value -> pairs.add(pair(parameter.getKey(), value)));
      } else {
        pairs.add(pair(parameter.getKey(), parameter.getValue()));
      }
    }
    String text = uri.toString();
    int fragment = text.indexOf('#');
    String base = fragment < 0 ? text : text.substring(0, fragment);
    String separator = uri.getRawQuery() == null ? "?" : "&";
    return URI.create(base + separator + pairs + (fragment < 0 ? "" : text.substring(fragment)));
  }

  private static String pair(String name, JsonNode value) {
    return URLEncoder.encode(name, StandardCharsets.UTF_8)
        + "="
        + URLEncoder.encode(value.asText(), StandardCharsets.UTF_8);
  }

  private static boolean hasHeader(JsonNode headers, String name) {
    if (headers == null || !headers.isObject()) {
      return false;
    }
    for (Iterator<String> names = headers.fieldNames(); names.hasNext(); ) {
      if (names.next().equalsIgnoreCase(name)) {
        return true;
      }
    }
    return false;
  }

  private static String idempotencyKey(Invocation invocation) {
    return invocation.idempotencyKey() != null
        ? invocation.idempotencyKey()
        : Invocation.idempotencyKey(invocation.runId(), invocation.stepName());
  }
}

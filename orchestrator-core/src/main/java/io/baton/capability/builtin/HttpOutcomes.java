package io.baton.capability.builtin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.baton.capability.ErrorCodes;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import io.baton.journal.JournalCodec;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;

/**
 * Maps what an HTTP exchange gave to a step outcome. 2xx and 3xx complete with {@code {status,
 * headers, body}}; 429 fails as {@code rate_limited} and 5xx as {@code http_5xx}, both retryable;
 * other 4xx fail as {@code http_4xx}, not retryable. A timeout fails as {@code timeout} and a peer
 * that cannot be reached as {@code unavailable}, both retryable.
 */
final class HttpOutcomes {
  private static final int MAX_BODY_IN_MESSAGE = 200;

  private HttpOutcomes() {}

  static StepOutcome of(HttpRequest request, HttpResponse<String> response) {
    int status = response.statusCode();
    if (status < 400) {
      return StepOutcome.completed(output(response));
    }
    String message = describe(request) + " answered " + status + excerpt(response.body());
    if (status == 429) {
      return StepOutcome.failed(ErrorCodes.RATE_LIMITED, message, true);
    }
    if (status >= 500) {
      return StepOutcome.failed(ErrorCodes.HTTP_5XX, message, true);
    }
    return StepOutcome.failed(ErrorCodes.HTTP_4XX, message, false);
  }

  static StepOutcome of(HttpRequest request, Throwable error, Invocation invocation) {
    Throwable cause =
        error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    String call = describe(request);
    if (cause instanceof CancellationException) {
      return deadlinePassed(invocation)
          ? timedOut(call)
          : StepOutcome.failed(ErrorCodes.CANCELLED, call + " was cancelled", false);
    }
    if (cause instanceof HttpTimeoutException) {
      return timedOut(call);
    }
    if (cause instanceof ConnectException) {
      return StepOutcome.failed(
          ErrorCodes.UNAVAILABLE, call + " could not connect: " + reason(cause), true);
    }
    if (cause instanceof IOException) {
      return StepOutcome.failed(ErrorCodes.UNAVAILABLE, call + " failed: " + reason(cause), true);
    }
    if (cause instanceof IllegalArgumentException) {
      return StepOutcome.failed(ErrorCodes.INVALID_PARAMS, call + ": " + reason(cause), false);
    }
    return StepOutcome.failed(ErrorCodes.INTERNAL, call + " failed: " + cause, true);
  }

  static StepOutcome deadlinePassedBeforeSending(HttpRequest request) {
    return StepOutcome.failed(
        ErrorCodes.TIMEOUT, describe(request) + " was not sent: its deadline had passed", true);
  }

  private static StepOutcome timedOut(String call) {
    return StepOutcome.failed(ErrorCodes.TIMEOUT, call + " timed out", true);
  }

  static String describe(HttpRequest request) {
    return request.method() + " " + request.uri();
  }

  private static boolean deadlinePassed(Invocation invocation) {
    return invocation.deadline() != null
        && !invocation.clock().instant().isBefore(invocation.deadline());
  }

  private static JsonNode output(HttpResponse<String> response) {
    ObjectNode output = JsonNodeFactory.instance.objectNode();
    output.put("status", response.statusCode());
    output.set("headers", headers(response.headers().map()));
    output.set("body", body(response));
    return output;
  }

  private static ObjectNode headers(Map<String, List<String>> received) {
    Map<String, String> sorted = new TreeMap<>();
    received.forEach(
        (name, values) -> {
          if (!name.startsWith(":")) {
            sorted.merge(
                name.toLowerCase(Locale.ROOT), String.join(", ", values), (a, b) -> a + ", " + b);
          }
        });
    ObjectNode headers = JsonNodeFactory.instance.objectNode();
    sorted.forEach(headers::put);
    return headers;
  }

  /** JSON when the response says it is JSON and it parses; else the text; nothing as null. */
  private static JsonNode body(HttpResponse<String> response) {
    String text = response.body();
    if (text == null || text.isEmpty()) {
      return NullNode.getInstance();
    }
    String type = response.headers().firstValue("content-type").orElse("");
    if (type.toLowerCase(Locale.ROOT).contains("json")) {
      try {
        return JournalCodec.mapper().readTree(text);
      } catch (JsonProcessingException notJson) {
        return TextNode.valueOf(text);
      }
    }
    return TextNode.valueOf(text);
  }

  private static String excerpt(String body) {
    if (body == null || body.isBlank()) {
      return "";
    }
    String oneLine = body.strip().replaceAll("\\s+", " ");
    return ": "
        + (oneLine.length() <= MAX_BODY_IN_MESSAGE
            ? oneLine
            : oneLine.substring(0, MAX_BODY_IN_MESSAGE) + "…");
  }

  private static String reason(Throwable cause) {
    return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
  }
}

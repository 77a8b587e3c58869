package io.baton.node.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Plain HTTP calls to one node's API, for contract tests. */
public final class ApiCalls {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final URI base;
  private final String token;
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  public ApiCalls(URI base) {
    this(base, null);
  }

  private ApiCalls(URI base, String token) {
    this.base = base;
    this.token = token;
  }

  /** These calls with {@code Authorization: Bearer token}. */
  public ApiCalls withToken(String token) {
    return new ApiCalls(base, token);
  }

  public URI base() {
    return base;
  }

  public Reply get(String path) {
    return send(request(path).GET());
  }

  public Reply post(String path, String json) {
    return post(path, json, "application/json");
  }

  public Reply post(String path, String body, String contentType) {
    return send(
        request(path)
            .header("Content-Type", contentType)
            .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  public Reply method(String method, String path) {
    return send(request(path).method(method, HttpRequest.BodyPublishers.noBody()));
  }

  public HttpRequest.Builder request(String path) {
    return authorized(HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT));
  }

  /** A request without a timeout, for a stream that stays open. */
  public HttpRequest.Builder streamRequest(String path) {
    return authorized(HttpRequest.newBuilder(base.resolve(path)));
  }

  private HttpRequest.Builder authorized(HttpRequest.Builder request) {
    return token == null ? request : request.header("Authorization", "Bearer " + token);
  }

  public Reply send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> response =
          client.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Reply(response.statusCode(), response.headers(), response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  public HttpClient client() {
    return client;
  }
}

package io.baton.node.cli;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLHandshakeException;

/**
 * The HTTP calls of the client commands, on the JDK's client. A server that does not accept the
 * connection is reported as {@link ExitCodes#SERVER_NOT_RUNNING}.
 */
final class BatonClient {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  private final URI server;
  private final HttpClient http;
  private final Path caCert;

  private final String token;

  /** A client of {@code server} that sends {@code token} as a bearer token (none when null). */
  BatonClient(URI server, String token, Path caCert) {
    this.server = server;
    this.token = token == null || token.isBlank() ? null : token.trim();
    this.caCert = caCert;
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT);
    if (caCert != null) {
      builder.sslContext(CaTrust.context(caCert));
    }
    this.http = builder.build();
  }

  URI server() {
    return server;
  }

  ApiResponse get(String path) {
    return send(request(path).GET());
  }

  ApiResponse post(String path, String contentType, String body) {
    return post(path, contentType, body, Map.of());
  }

  /** A POST with extra request headers. */
  ApiResponse post(String path, String contentType, String body, Map<String, String> headers) {
    HttpRequest.Builder request = request(path).header("Content-Type", contentType);
    headers.forEach(request::header);
    return send(request.POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  ApiResponse delete(String path, String contentType, String body) {
    return send(
        request(path)
            .header("Content-Type", contentType)
            .method("DELETE", HttpRequest.BodyPublishers.ofString(body)));
  }

  /**
   * Opens a server-sent event stream ({@code Accept: text/event-stream}), resuming after {@code
   * lastEventId} when not null, and returns once the server answered 200; another answer is
   * reported as {@link Failures} says. The stream has no request timeout: it lasts until the caller
   * closes it or the server ends it.
   */
  ServerEvents events(String path, String lastEventId) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri(path)).header("Accept", "text/event-stream").GET();
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (lastEventId != null) {
      request.header("Last-Event-ID", lastEventId);
    }
    ServerEvents events = new ServerEvents();
    CompletableFuture<Integer> status = new CompletableFuture<>();
    CompletableFuture<HttpResponse<String>> response =
        http.sendAsync(
            request.build(),
            info -> {
              status.complete(info.statusCode());
              return info.statusCode() == 200
                  ? HttpResponse.BodySubscribers.mapping(
                      HttpResponse.BodySubscribers.fromLineSubscriber(events), ignored -> "")
                  : HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8);
            });
    try {
      CompletableFuture.anyOf(status, response)
          .get(CONNECT_TIMEOUT.plus(REQUEST_TIMEOUT).toMillis(), TimeUnit.MILLISECONDS);
      if (status.isDone() && status.join() == 200) {
        return events;
      }
      HttpResponse<String> answer = response.get(REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      throw Failures.failure(new ApiResponse(answer.statusCode(), answer.body()));
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw failure(
          cause instanceof CompletionException wrapped && wrapped.getCause() != null
              ? wrapped.getCause()
              : cause);
    } catch (TimeoutException e) {
      response.cancel(true);
      throw new CommandFailedException(
          ExitCodes.ERROR, "The server at " + server + " did not answer the event stream");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      response.cancel(true);
      throw new CommandFailedException(ExitCodes.ERROR, "Interrupted");
    }
  }

  private URI uri(String path) {
    return URI.create(server.toString().replaceAll("/+$", "") + path);
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri(path))
            .timeout(REQUEST_TIMEOUT)
            .header("Accept", "application/json");
    return token == null ? request : request.header("Authorization", "Bearer " + token);
  }

  private ApiResponse send(HttpRequest.Builder request) {
    HttpResponse<String> response = exchange(request, HttpResponse.BodyHandlers.ofString());
    return new ApiResponse(response.statusCode(), response.body());
  }

  private <T> HttpResponse<T> exchange(
      HttpRequest.Builder request, HttpResponse.BodyHandler<T> body) {
    try {
      return http.send(request.build(), body);
    } catch (IOException e) {
      throw failure(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CommandFailedException(ExitCodes.ERROR, "Interrupted");
    }
  }

  /** What the CLI says when a request could not be made: no server, a refused TLS, or else. */
  private CommandFailedException failure(Throwable e) {
    if (refused(e)) {
      return new CommandFailedException(
          ExitCodes.SERVER_NOT_RUNNING, "Server not running at " + server);
    }
    SSLHandshakeException handshake = handshake(e);
    if (handshake != null) {
      return new CommandFailedException(
          ExitCodes.ERROR,
          "TLS to "
              + server
              + " refused: "
              + handshake.getMessage()
              + (caCert == null
                  ? " (the server's certificate is not signed by a CA this JVM trusts;"
                      + " give its CA with --ca-cert or BATON_CA_CERT)"
                  : " (the server's certificate is not signed by the CA in " + caCert + ")"));
    }
    return new CommandFailedException(
        ExitCodes.ERROR, "Cannot talk to the server at " + server + ": " + e);
  }

  private static SSLHandshakeException handshake(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SSLHandshakeException handshake) {
        return handshake;
      }
    }
    return null;
  }

  private static boolean refused(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof ConnectException || cause instanceof HttpConnectTimeoutException) {
        return true;
      }
    }
    return false;
  }
}

package io.baton.node.cli;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
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
   * lastEventId} when not null; an answer other than 200 is reported as {@link Failures} says. The
   * stream has no request timeout: it lasts until the caller closes it or the server ends it.
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
    HttpResponse<Stream<String>> response = exchange(request, HttpResponse.BodyHandlers.ofLines());
    if (response.statusCode() != 200) {
      String body;
      try (Stream<String> lines = response.body()) {
        body = lines.collect(Collectors.joining("\n"));
      }
      throw Failures.failure(new ApiResponse(response.statusCode(), body));
    }
    return new ServerEvents(response.body());
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
      if (refused(e)) {
        throw new CommandFailedException(
            ExitCodes.SERVER_NOT_RUNNING, "Server not running at " + server);
      }
      SSLHandshakeException handshake = handshake(e);
      if (handshake != null) {
        throw new CommandFailedException(
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
      throw new CommandFailedException(
          ExitCodes.ERROR, "Cannot talk to the server at " + server + ": " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CommandFailedException(ExitCodes.ERROR, "Interrupted");
    }
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

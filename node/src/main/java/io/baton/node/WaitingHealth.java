package io.baton.node;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.baton.node.http.HttpApi;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The health endpoints while the node waits for its store, before the API can start: {@code
 * /health/live} answers 200 at once and {@code /health/ready} 503 with what the node waits for, so
 * that a PostgreSQL that is down (or a schema that a migration has not reached yet) makes a pod
 * wait, not crash-loop. Every other path answers 503. Listens on the API's address; {@link
 * #close()} frees it for the API. Thread-safe.
 */
final class WaitingHealth implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService executor;

  private WaitingHealth(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * @param waitingFor what the node waits for now, such as {@code "the store (postgres): Connection
   *     refused"}
   */
  static WaitingHealth start(String host, int port, Supplier<String> waitingFor) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(host, port), 16);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on " + host + ":" + port, e);
    }
    ExecutorService executor =
        Executors.newSingleThreadExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "baton-waiting-health");
              thread.setDaemon(true);
              return thread;
            });
    server.setExecutor(executor);
    server.createContext("/", exchange -> answer(exchange, waitingFor));
    server.start();
    return new WaitingHealth(server, executor);
  }

  int port() {
    return server.getAddress().getPort();
  }

  private static void answer(HttpExchange exchange, Supplier<String> waitingFor)
      throws IOException {
    String path = exchange.getRequestURI().getPath();
    String reason = quoted("waiting for " + waitingFor.get());
    if (path.equals(HttpApi.LIVE_PATH)) {
      send(exchange, 200, "{\"status\":\"UP\"}");
    } else if (path.equals(HttpApi.READY_PATH)) {
      send(exchange, 503, "{\"status\":\"NOT_READY\",\"reasons\":[" + reason + "]}");
    } else {
      send(
          exchange,
          503,
          "{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,"
              + "\"detail\":"
              + reason
              + "}");
    }
  }

  private static void send(HttpExchange exchange, int status, String json) throws IOException {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private static String quoted(String text) {
    StringBuilder json = new StringBuilder("\"");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        json.append('\\').append(c);
      } else if (c < 0x20) {
        json.append(String.format("\\u%04x", (int) c));
      } else {
        json.append(c);
      }
    }
    return json.append('"').toString();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}

package io.baton.capability.builtin;

import static org.assertj.core.api.Assertions.fail;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A real JDK HTTP server on 127.0.0.1 and a free port, recording every request it receives. Paths
 * answer as configured; a held path answers only when the server closes.
 */
final class LocalHttpServer implements AutoCloseable {
  private static final long WAIT_SECONDS = 10;

  /** A request as the server saw it. */
  record Received(String method, URI uri, Headers headers, String body) {}

  private final HttpServer server;
  private final ExecutorService handlers = Executors.newCachedThreadPool();
  private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
  private final CountDownLatch closing = new CountDownLatch(1);

  private LocalHttpServer(HttpServer server) {
    this.server = server;
    server.setExecutor(handlers);
    server.start();
  }

  static LocalHttpServer start() throws IOException {
    InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    return new LocalHttpServer(HttpServer.create(loopback, 0));
  }

  String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  /** Answers requests to {@code path} with this status, content type (null for none) and body. */
  LocalHttpServer respond(String path, int status, String contentType, String body) {
    server.createContext(
        path,
        exchange -> {
          record(exchange);
          if (contentType != null) {
            exchange.getResponseHeaders().add("Content-Type", contentType);
          }
          send(exchange, status, body);
        });
    return this;
  }

  /** Answers requests to {@code path} with a redirect to {@code location}. */
  LocalHttpServer redirect(String path, int status, String location) {
    server.createContext(
        path,
        exchange -> {
          record(exchange);
          exchange.getResponseHeaders().add("Location", location);
          send(exchange, status, null);
        });
    return this;
  }

  /** Receives requests to {@code path} and answers none of them until the server closes. */
  LocalHttpServer hold(String path) {
    server.createContext(
        path,
        exchange -> {
          record(exchange);
          try {
            closing.await(WAIT_SECONDS * 3, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          exchange.close();
        });
    return this;
  }

  /** The next request received, waiting a bounded time for it. */
  Received nextRequest() throws InterruptedException {
    Received next = received.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    if (next == null) {
      fail("the server received no request within " + WAIT_SECONDS + "s");
    }
    return next;
  }

  boolean receivedNothing() {
    return received.isEmpty();
  }

  private void record(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    received.add(
        new Received(
            exchange.getRequestMethod(),
            exchange.getRequestURI(),
            exchange.getRequestHeaders(),
            body));
  }

  private static void send(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
    exchange.close();
  }

  @Override
  public void close() {
    closing.countDown();
    server.stop(0);
    handlers.shutdownNow();
    try {
      handlers.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

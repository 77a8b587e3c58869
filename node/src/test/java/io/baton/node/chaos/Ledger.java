package io.baton.node.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.baton.journal.JournalCodec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The side-effect service of the chaos workload, on loopback: records every request's {@code
 * Idempotency-Key} and the attempt number its body carries, holds it a while (so steps are in
 * flight when faults strike) and answers {@code {"key": ...}}. A seeded share of keys is refused
 * with 503 on their first attempt, so retries are journaled too. Thread-safe.
 */
final class Ledger implements AutoCloseable {
  /** One request: which run's step, which attempt, when. */
  record SideEffect(String key, int attempt, Instant at) {}

  private static final int REFUSED_PERCENT = 15;

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final ConcurrentLinkedQueue<SideEffect> requests = new ConcurrentLinkedQueue<>();
  private final long seed;

  Ledger(long seed) throws IOException {
    this.seed = seed;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/ledger";
  }

  /** Every request so far, in arrival order. */
  List<SideEffect> sideEffects() {
    return List.copyOf(requests);
  }

  private void handle(HttpExchange exchange) throws IOException {
    String key = String.valueOf(exchange.getRequestHeaders().getFirst("Idempotency-Key"));
    int attempt = attempt(exchange.getRequestBody().readAllBytes());
    requests.add(new SideEffect(key, attempt, Instant.now()));
    int mix = Math.floorMod((key + "#" + seed).hashCode(), 1000);
    try {
      Thread.sleep(holdMillis(mix));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    boolean refuse = attempt == 1 && mix % 100 < REFUSED_PERCENT;
    byte[] body =
        (refuse ? "{\"error\":\"try again\"}" : "{\"key\":\"" + key + "\"}")
            .getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(refuse ? 503 : 200, body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }

  /**
   * Most requests are held 50–400 ms; a fifth 1.5–3.5 s (well inside the step timeout), so that
   * each node has runs in flight when a fault strikes it and adoption has something to measure.
   */
  private static long holdMillis(int mix) {
    return mix < 200 ? 1_500 + mix * 10L : 50 + mix % 350;
  }

  /** The body's {@code attempt}; -1 (which no journal holds) when it is missing. */
  private static int attempt(byte[] body) {
    try {
      JsonNode attempt = JournalCodec.mapper().readTree(body).path("attempt");
      return attempt.isMissingNode() ? -1 : Integer.parseInt(attempt.asText());
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}

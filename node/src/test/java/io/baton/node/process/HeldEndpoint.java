package io.baton.node.process;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local HTTP endpoint that holds each request until released (or for a fixed time), counting
 * requests per {@code Idempotency-Key}. Loopback only.
 */
final class HeldEndpoint implements AutoCloseable {
  private final HttpServer server;
  private final Map<String, AtomicInteger> byKey = new ConcurrentHashMap<>();
  private final AtomicInteger waiting = new AtomicInteger();
  private final long holdMillis;
  private volatile CountDownLatch gate = new CountDownLatch(1);

  /** Holds every request {@code holdMillis}, or until {@link #release()} when negative. */
  HeldEndpoint(long holdMillis) throws IOException {
    this.holdMillis = holdMillis;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/", this::handle);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/work";
  }

  private void handle(HttpExchange exchange) throws IOException {
    String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
    byKey.computeIfAbsent(String.valueOf(key), k -> new AtomicInteger()).incrementAndGet();
    waiting.incrementAndGet();
    try {
      if (holdMillis >= 0) {
        Thread.sleep(holdMillis);
      } else {
        gate.await(2, TimeUnit.MINUTES);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      waiting.decrementAndGet();
    }
    byte[] body = ("{\"key\":\"" + key + "\"}").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }

  /** Lets every held and later request through. */
  void release() {
    gate.countDown();
  }

  int waiting() {
    return waiting.get();
  }

  int requests(String key) {
    AtomicInteger count = byKey.get(key);
    return count == null ? 0 : count.get();
  }

  int distinctKeys() {
    return byKey.size();
  }

  /** Every Idempotency-Key a request carried. */
  Set<String> keys() {
    return Set.copyOf(byKey.keySet());
  }

  @Override
  public void close() {
    release();
    server.stop(0);
  }
}

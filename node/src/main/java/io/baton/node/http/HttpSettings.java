package io.baton.node.http;

import java.time.Duration;
import java.util.Objects;

/**
 * Where and how the HTTP API listens.
 *
 * @param host the address to bind, such as {@code 127.0.0.1}
 * @param port the port; 0 binds any free port ({@link HttpApi#port()} tells which)
 * @param maxBodySize the largest request body accepted, in bytes; larger ones get a 413
 * @param streamHeartbeat how often {@code /api/stream} sends a comment to keep idle connections
 *     open through proxies and to notice clients that went away
 * @param limits size limits on flows, inputs and headers
 */
public record HttpSettings(
    String host, int port, long maxBodySize, Duration streamHeartbeat, RequestLimits limits) {
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 8080;
  public static final long DEFAULT_MAX_BODY_SIZE = 1024 * 1024;
  public static final Duration DEFAULT_STREAM_HEARTBEAT = Duration.ofSeconds(15);

  public HttpSettings {
    Objects.requireNonNull(host, "http.host");
    if (host.isBlank()) {
      throw new IllegalArgumentException("http.host must not be blank");
    }
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("http.port must be between 0 and 65535, got " + port);
    }
    if (maxBodySize < 1) {
      throw new IllegalArgumentException("http.maxBodySize must be positive, got " + maxBodySize);
    }
    if (streamHeartbeat == null || streamHeartbeat.isNegative() || streamHeartbeat.isZero()) {
      throw new IllegalArgumentException(
          "http.streamHeartbeat must be a positive duration, got " + streamHeartbeat);
    }
    Objects.requireNonNull(limits, "limits");
  }

  public static HttpSettings defaults() {
    return new HttpSettings(
        DEFAULT_HOST,
        DEFAULT_PORT,
        DEFAULT_MAX_BODY_SIZE,
        DEFAULT_STREAM_HEARTBEAT,
        RequestLimits.defaults());
  }

  public HttpSettings withHost(String host) {
    return new HttpSettings(host, port, maxBodySize, streamHeartbeat, limits);
  }

  public HttpSettings withPort(int port) {
    return new HttpSettings(host, port, maxBodySize, streamHeartbeat, limits);
  }

  public HttpSettings withMaxBodySize(long maxBodySize) {
    return new HttpSettings(host, port, maxBodySize, streamHeartbeat, limits);
  }

  public HttpSettings withLimits(RequestLimits requestLimits) {
    return new HttpSettings(host, port, maxBodySize, streamHeartbeat, requestLimits);
  }

  public HttpSettings withStreamHeartbeat(Duration streamHeartbeat) {
    return new HttpSettings(host, port, maxBodySize, streamHeartbeat, limits);
  }
}

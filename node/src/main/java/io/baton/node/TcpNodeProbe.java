package io.baton.node;

import io.baton.lease.NodeInfo;
import io.baton.recovery.NodeProbe;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Probes a node by opening a TCP connection to its advertised API address. A refused connection is
 * the only evidence of death: the node's host answered, and nothing listens on the port, so the
 * process is gone (a paused or overloaded process still has its socket, and the kernel accepts for
 * it). Anything else, a timeout, no route, a name that does not resolve, is {@link
 * Verdict#UNKNOWN}. Thread-safe.
 */
public final class TcpNodeProbe implements NodeProbe {
  private final Duration timeout;

  public TcpNodeProbe(Duration timeout) {
    this.timeout = timeout;
  }

  @Override
  public Verdict probe(NodeInfo node) {
    InetSocketAddress address = parse(node.address());
    if (address == null || address.isUnresolved()) {
      return Verdict.UNKNOWN;
    }
    try (Socket socket = new Socket()) {
      socket.connect(address, (int) Math.max(1, timeout.toMillis()));
      return Verdict.PRESENT;
    } catch (ConnectException refused) {
      // "Connection refused" is an RST from the node's host; a connect timeout is a
      // SocketTimeoutException and "no route to host" a NoRouteToHostException: neither is death.
      return refused.getMessage() != null && refused.getMessage().contains("refused")
          ? Verdict.GONE
          : Verdict.UNKNOWN;
    } catch (IOException | IllegalArgumentException | SecurityException other) {
      return Verdict.UNKNOWN;
    }
  }

  /**
   * One daemon thread for a node's probes, gone when idle: a probe may block for its timeout, which
   * must not hold up the node's scheduler.
   */
  public static ExecutorService probingThread() {
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            1,
            1,
            10,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            task -> {
              Thread thread = new Thread(task, "failure-detector");
              thread.setDaemon(true);
              return thread;
            });
    executor.allowCoreThreadTimeOut(true);
    return executor;
  }

  /** {@code host:port} (or {@code [v6]:port}) as a socket address, or null. */
  static InetSocketAddress parse(String address) {
    int colon = address.lastIndexOf(':');
    if (colon <= 0 || colon == address.length() - 1) {
      return null;
    }
    String host = address.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    try {
      int port = Integer.parseInt(address.substring(colon + 1));
      return port < 1 || port > 65535 ? null : new InetSocketAddress(host, port);
    } catch (NumberFormatException notAPort) {
      return null;
    }
  }
}

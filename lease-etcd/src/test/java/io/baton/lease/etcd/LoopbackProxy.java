package io.baton.lease.etcd;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on a free loopback port in front of one etcd member, so that a test can cut one
 * client off etcd (a network partition of that client alone) and heal it, while etcd and every
 * other client go on. {@link #cut()} drops every connection and refuses new ones; {@link
 * #restore()} accepts again on the same port. Thread-safe.
 *
 * <p>Closing the listening socket is not enough to refuse: a connection that arrives just after
 * (while the accepting thread is still inside {@code accept}) is accepted anyway, and one accepted
 * just before can be wired up after the cut has dropped the others. So every accepted connection is
 * admitted under the proxy's lock only if the socket that accepted it is still the open, current
 * one; otherwise it is reset before a byte passes.
 */
public final class LoopbackProxy implements AutoCloseable {
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final InetSocketAddress target;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final int port;
  // Guarded by `this`.
  private ServerSocket server;
  private boolean closed;

  public LoopbackProxy(URI target) {
    this.target = new InetSocketAddress(target.getHost(), target.getPort());
    this.server = bind(0);
    this.port = server.getLocalPort();
    accept(server);
  }

  /** Where clients connect instead of the member. */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /** Drops every connection through the proxy and refuses new ones until {@link #restore()}. */
  public synchronized void cut() {
    closeQuietly(server);
    sockets.forEach(LoopbackProxy::closeQuietly);
    sockets.clear();
  }

  /** Accepts connections again, on the same port. */
  public synchronized void restore() {
    if (closed || !server.isClosed()) {
      return;
    }
    server = bind(port);
    accept(server);
  }

  @Override
  public synchronized void close() {
    closed = true;
    cut();
  }

  private static ServerSocket bind(int port) {
    try {
      ServerSocket socket = new ServerSocket();
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      return socket;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on 127.0.0.1:" + port, e);
    }
  }

  private void accept(ServerSocket listening) {
    daemon(
        () -> {
          while (!listening.isClosed()) {
            try {
              connect(listening, listening.accept());
            } catch (IOException stopped) {
              // cut() closed the listening socket
            }
          }
        });
  }

  private void connect(ServerSocket listening, Socket client) {
    Socket upstream;
    try {
      upstream = new Socket(target.getAddress(), target.getPort());
    } catch (IOException refused) {
      reset(client); // the member is down: the client sees its connection drop
      return;
    }
    synchronized (this) {
      if (listening != server || listening.isClosed()) {
        reset(client); // accepted across a cut: refused, as far as the client can tell
        reset(upstream);
        return;
      }
      sockets.add(client);
      sockets.add(upstream);
    }
    daemon(() -> pump(client, upstream));
    daemon(() -> pump(upstream, client));
  }

  /** Closes with an RST, as a refused or cut connection looks to its peer. */
  private static void reset(Socket socket) {
    try {
      socket.setSoLinger(true, 0);
    } catch (IOException alreadyClosed) {
      // closing it is all that is left
    }
    closeQuietly(socket);
  }

  private static void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      int read;
      while ((read = in.read(buffer)) >= 0) {
        out.write(buffer, 0, read);
        out.flush();
      }
    } catch (IOException dropped) {
      // either side closed
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private static void daemon(Runnable task) {
    Thread thread = new Thread(task, "loopback-proxy-" + THREADS.incrementAndGet());
    thread.setDaemon(true);
    thread.start();
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception ignored) {
      // already closed
    }
  }
}

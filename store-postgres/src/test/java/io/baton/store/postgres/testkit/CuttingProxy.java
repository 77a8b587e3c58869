package io.baton.store.postgres.testkit;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP proxy in front of PostgreSQL that cuts a connection at an exact point of the wire protocol,
 * deterministically, where {@code pg_terminate_backend} could only be timed by luck:
 *
 * <ul>
 *   <li>{@link #cutAfterCommits(int)}: once the server has committed a write (its {@code COMMIT},
 *       or an auto-committed {@code INSERT}, followed by ReadyForQuery "idle"), the proxy closes
 *       both sides instead of passing the ReadyForQuery on. The commit is durable; the client never
 *       learns it: an ambiguous commit.
 *   <li>{@link #cutBeforeCommits(int)}: after an {@code INSERT} inside a transaction (ReadyForQuery
 *       "in transaction"), the proxy closes both sides; the server rolls the transaction back.
 * </ul>
 *
 * The client must connect without TLS or GSS encryption ({@code
 * sslmode=disable&gssEncMode=disable}) so that the proxy can read the messages. Thread-safe; {@link
 * #close()} closes everything.
 */
public final class CuttingProxy implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CuttingProxy.class);

  private final String targetHost;
  private final int targetPort;
  private final ServerSocket listener;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final AtomicInteger commitCutsLeft = new AtomicInteger();
  private final AtomicInteger abortCutsLeft = new AtomicInteger();
  private final AtomicInteger cuts = new AtomicInteger();
  private final Thread acceptor;
  private volatile boolean closed;

  public CuttingProxy(String targetHost, int targetPort) throws IOException {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.acceptor = new Thread(this::accept, "cutting-proxy-acceptor");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public int port() {
    return listener.getLocalPort();
  }

  /** The URL of {@code database} through this proxy, readable on the wire. */
  public String urlOf(String database) {
    return "jdbc:postgresql://127.0.0.1:"
        + port()
        + "/"
        + database
        + "?sslmode=disable&gssEncMode=disable";
  }

  /** Cuts the connections of the next {@code count} committed writes before their reply. */
  public void cutAfterCommits(int count) {
    commitCutsLeft.set(count);
  }

  /** Cuts the next {@code count} transactions after an insert, before they commit. */
  public void cutBeforeCommits(int count) {
    abortCutsLeft.set(count);
  }

  /** How many connections the proxy has cut. */
  public int cuts() {
    return cuts.get();
  }

  @Override
  public void close() throws IOException {
    closed = true;
    listener.close();
    for (Socket socket : sockets) {
      socket.close();
    }
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket(targetHost, targetPort);
        client.setTcpNoDelay(true);
        server.setTcpNoDelay(true);
        sockets.add(client);
        sockets.add(server);
        start("cutting-proxy-up", () -> copy(client, server));
        start("cutting-proxy-down", () -> relayReplies(server, client));
      } catch (IOException e) {
        if (!closed) {
          log.warn("proxy accept failed: {}", e.toString());
        }
      }
    }
  }

  private static void start(String name, Runnable pump) {
    Thread thread = new Thread(pump, name);
    thread.setDaemon(true);
    thread.start();
  }

  private void copy(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      int read;
      while ((read = in.read(buffer)) >= 0) {
        out.write(buffer, 0, read);
        out.flush();
      }
    } catch (IOException ended) {
      // one side closed: close the other
    } finally {
      closeQuietly(from, to);
    }
  }

  /** Passes the server's messages on one by one, cutting where armed. */
  private void relayReplies(Socket server, Socket client) {
    try (DataInputStream in = new DataInputStream(server.getInputStream());
        OutputStream out = client.getOutputStream()) {
      String lastTag = "";
      ByteArrayOutputStream pending = new ByteArrayOutputStream();
      while (true) {
        byte type = in.readByte();
        int length = in.readInt();
        byte[] body = new byte[length - 4];
        in.readFully(body);
        if (type == 'C') {
          lastTag = new String(body, 0, body.length - 1, StandardCharsets.US_ASCII);
        }
        if (type == 'Z' && shouldCut((char) body[0], lastTag)) {
          out.write(pending.toByteArray());
          out.flush();
          cuts.incrementAndGet();
          log.info(
              "cutting a connection after '{}' (transaction status {})", lastTag, (char) body[0]);
          closeQuietly(server, client);
          return;
        }
        pending.write(type);
        pending.write(length >>> 24);
        pending.write(length >>> 16);
        pending.write(length >>> 8);
        pending.write(length);
        pending.write(body);
        if (type == 'Z' || in.available() == 0) {
          out.write(pending.toByteArray());
          out.flush();
          pending.reset();
        }
        if (type == 'Z') {
          lastTag = "";
        }
      }
    } catch (EOFException ended) {
      // the server closed
    } catch (IOException ended) {
      // one side closed
    } finally {
      closeQuietly(server, client);
    }
  }

  private boolean shouldCut(char transactionStatus, String lastTag) {
    if (transactionStatus == 'I' && (lastTag.equals("COMMIT") || lastTag.startsWith("INSERT"))) {
      return takeOne(commitCutsLeft);
    }
    if (transactionStatus == 'T' && lastTag.startsWith("INSERT")) {
      return takeOne(abortCutsLeft);
    }
    return false;
  }

  private static boolean takeOne(AtomicInteger left) {
    return left.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
  }

  private static void closeQuietly(Socket... sockets) {
    for (Socket socket : sockets) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // already closed
      }
    }
  }
}

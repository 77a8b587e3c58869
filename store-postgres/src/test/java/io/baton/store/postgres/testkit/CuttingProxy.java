package io.baton.store.postgres.testkit;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 *   <li>{@link #cutBeforeCommits(int)}: when the client sends {@code COMMIT}, the proxy closes both
 *       sides instead of passing it on; the server rolls the transaction back.
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

  /** Cuts the next {@code count} transactions when their COMMIT is sent, before it arrives. */
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
        start("cutting-proxy-up", () -> relayRequests(client, server));
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

  /**
   * Passes the client's messages on one by one, remembering the text of each prepared statement, so
   * that a {@code COMMIT} is recognised even when it is sent as a named statement.
   */
  private void relayRequests(Socket client, Socket server) {
    try (DataInputStream in = new DataInputStream(client.getInputStream());
        OutputStream out = server.getOutputStream()) {
      int startupLength = in.readInt();
      byte[] startup = new byte[startupLength - 4];
      in.readFully(startup);
      out.write(frame(null, startupLength, startup));
      out.flush();
      Map<String, String> statements = new HashMap<>();
      while (true) {
        byte type = in.readByte();
        int length = in.readInt();
        byte[] body = new byte[length - 4];
        in.readFully(body);
        String query = null;
        if (type == 'P') {
          String[] nameAndText = cstrings(body, 2);
          statements.put(nameAndText[0], nameAndText[1]);
        } else if (type == 'B') {
          query = statements.get(cstrings(body, 2)[1]);
        } else if (type == 'Q') {
          query = cstrings(body, 1)[0];
        }
        if (query != null && query.trim().equalsIgnoreCase("COMMIT") && takeOne(abortCutsLeft)) {
          cuts.incrementAndGet();
          log.info("cutting a connection instead of passing its COMMIT on");
          closeQuietly(client, server);
          return;
        }
        out.write(frame(type, length, body));
        if (in.available() == 0) {
          out.flush();
        }
      }
    } catch (IOException ended) {
      // one side closed: close the other
    } finally {
      closeQuietly(client, server);
    }
  }

  private static byte[] frame(Byte type, int length, byte[] body) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(body.length + 5);
    if (type != null) {
      bytes.write(type);
    }
    bytes.write(length >>> 24);
    bytes.write(length >>> 16);
    bytes.write(length >>> 8);
    bytes.write(length);
    bytes.writeBytes(body);
    return bytes.toByteArray();
  }

  /** The first {@code count} NUL-terminated strings of a message body. */
  private static String[] cstrings(byte[] body, int count) {
    String[] strings = new String[count];
    int start = 0;
    for (int i = 0; i < count; i++) {
      int end = start;
      while (body[end] != 0) {
        end++;
      }
      strings[i] = new String(body, start, end - start, StandardCharsets.UTF_8);
      start = end + 1;
    }
    return strings;
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
        pending.write(frame(type, length, body));
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

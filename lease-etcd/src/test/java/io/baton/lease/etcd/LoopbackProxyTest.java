package io.baton.lease.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The proxy's promise that tests lean on: while cut, no connection reaches the member. An echo
 * server stands in for the member, so any byte that comes back went through. (When a connection
 * made right after a cut slipped through, an orphan watch reopened during the "partition" was live
 * before etcd compacted its history, so {@link OrphanWatchGapTest} waited for a gap that could not
 * come.)
 */
class LoopbackProxyTest {
  private static final int ROUNDS = 30;
  private static final int ATTEMPTS_WHILE_CUT = 20;

  private EchoServer echo;

  @BeforeEach
  void startEcho() throws IOException {
    echo = new EchoServer();
  }

  @AfterEach
  void stopEcho() throws IOException {
    echo.close();
  }

  @Test
  void a_cut_proxy_lets_no_connection_through_until_restored() throws IOException {
    try (LoopbackProxy proxy = new LoopbackProxy(echo.uri())) {
      assertThat(roundTrip(proxy)).isEqualTo(Result.THROUGH);
      for (int round = 0; round < ROUNDS; round++) {
        proxy.cut();
        for (int attempt = 0; attempt < ATTEMPTS_WHILE_CUT; attempt++) {
          assertThat(roundTrip(proxy))
              .as("round %d, attempt %d after the cut", round, attempt)
              .isEqualTo(Result.BLOCKED);
        }
        proxy.restore();
        assertThat(roundTrip(proxy))
            .as("round %d after the restore", round)
            .isEqualTo(Result.THROUGH);
      }
    }
  }

  private enum Result {
    THROUGH,
    BLOCKED
  }

  /** Sends one byte through the proxy and says whether the echo came back. */
  private static Result roundTrip(LoopbackProxy proxy) {
    URI uri = proxy.uri();
    try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
      socket.setSoTimeout(5_000);
      socket.getOutputStream().write(42);
      return socket.getInputStream().read() == 42 ? Result.THROUGH : Result.BLOCKED;
    } catch (IOException refusedOrDropped) {
      return Result.BLOCKED;
    }
  }

  /** Echoes every byte on every connection, on daemon threads. */
  private static final class EchoServer implements AutoCloseable {
    private final ServerSocket server;

    EchoServer() throws IOException {
      server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread acceptor = new Thread(this::acceptAll, "echo-accept");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    URI uri() {
      return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    private void acceptAll() {
      while (!server.isClosed()) {
        try {
          Socket socket = server.accept();
          Thread echoing = new Thread(() -> echo(socket), "echo");
          echoing.setDaemon(true);
          echoing.start();
        } catch (IOException closed) {
          // close() stopped the server
        }
      }
    }

    private static void echo(Socket socket) {
      try (socket;
          InputStream in = socket.getInputStream();
          OutputStream out = socket.getOutputStream()) {
        int read;
        while ((read = in.read()) >= 0) {
          out.write(read);
          out.flush();
        }
      } catch (IOException dropped) {
        // the proxy closed its side
      }
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }
}

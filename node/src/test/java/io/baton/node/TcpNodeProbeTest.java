package io.baton.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.lease.NodeInfo;
import io.baton.recovery.NodeProbe.Verdict;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The TCP probe on real sockets: only a refused connection is a death. */
class TcpNodeProbeTest {
  private final TcpNodeProbe probe = new TcpNodeProbe(Duration.ofMillis(300));

  private static NodeInfo at(String address) {
    return new NodeInfo("node-x", address, Instant.EPOCH, "test", false);
  }

  @Test
  void a_listening_port_is_present() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      assertThat(probe.probe(at("127.0.0.1:" + server.getLocalPort()))).isEqualTo(Verdict.PRESENT);
    }
  }

  @Test
  void a_port_nothing_listens_on_any_more_is_gone() throws Exception {
    int port;
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      port = server.getLocalPort();
    }
    assertThat(probe.probe(at("127.0.0.1:" + port))).isEqualTo(Verdict.GONE);
  }

  @Test
  void a_listener_with_a_full_backlog_that_never_accepts_is_still_present_or_unknown()
      throws Exception {
    // a paused process: its socket stays open, the kernel completes handshakes for it
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String address = "127.0.0.1:" + server.getLocalPort();
      for (int i = 0; i < 5; i++) {
        assertThat(probe.probe(at(address))).isNotEqualTo(Verdict.GONE);
      }
    }
  }

  @Test
  void no_address_a_bad_address_or_an_unknown_host_is_no_evidence() {
    assertThat(probe.probe(at(""))).isEqualTo(Verdict.UNKNOWN);
    assertThat(probe.probe(at("no-port"))).isEqualTo(Verdict.UNKNOWN);
    assertThat(probe.probe(at("127.0.0.1:99999"))).isEqualTo(Verdict.UNKNOWN);
    assertThat(probe.probe(at("host.invalid:8080"))).isEqualTo(Verdict.UNKNOWN);
  }

  @Test
  void addresses_parse_with_ipv6_brackets() {
    assertThat(TcpNodeProbe.parse("[::1]:8080").getPort()).isEqualTo(8080);
    assertThat(TcpNodeProbe.parse("[::1]:8080").getAddress().isLoopbackAddress()).isTrue();
    assertThat(TcpNodeProbe.parse("localhost:")).isNull();
  }
}

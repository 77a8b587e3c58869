package io.baton.lease.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** The fixture itself: what other modules' tests rely on. */
class EtcdTestClusterTest {
  private static boolean accepts(URI endpoint) {
    try (Socket ignored = new Socket(endpoint.getHost(), endpoint.getPort())) {
      return true;
    } catch (IOException refused) {
      return false;
    }
  }

  @Test
  void members_listen_on_loopback_and_closing_kills_them() {
    URI endpoint;
    try (EtcdTestCluster etcd = EtcdTestCluster.start(1)) {
      endpoint = etcd.endpoint(0);
      assertThat(endpoint.getHost()).isEqualTo("127.0.0.1");
      assertThat(etcd.isHealthy(0)).isTrue();
      assertThat(etcd.leader()).isZero();
    }
    assertThat(accepts(endpoint)).isFalse();
  }

  @Test
  void a_paused_member_is_unhealthy_until_resumed_and_a_killed_one_comes_back_on_restart() {
    try (EtcdTestCluster etcd = EtcdTestCluster.start(1)) {
      etcd.pause(0);
      assertThat(etcd.isHealthy(0)).isFalse();
      etcd.resume(0);
      etcd.restart(0);
      assertThat(etcd.isHealthy(0)).isTrue();
      etcd.kill(0);
      assertThat(accepts(etcd.endpoint(0))).isFalse();
      etcd.startAll();
      assertThat(etcd.isHealthy(0)).isTrue();
    }
  }
}

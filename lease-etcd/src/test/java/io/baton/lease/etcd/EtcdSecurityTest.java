package io.baton.lease.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.baton.lease.LeaseException;
import io.baton.lease.LeaseUnavailableException;
import io.baton.lease.Subscription;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.auth.Permission;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lease manager on an etcd that demands TLS client certificates, or a user and password. */
class EtcdSecurityTest {
  private static final Duration TTL = Duration.ofSeconds(2);

  @TempDir Path dir;

  private static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }

  @Test
  void a_node_with_the_ca_and_a_client_certificate_works_over_tls_and_one_without_cannot_connect() {
    TestCertificates certificates = TestCertificates.create(dir);
    try (EtcdTestCluster etcd = EtcdTestCluster.startWithTls(1, certificates);
        EtcdNodes nodes = new EtcdNodes(etcd, TTL)) {
      assertThat(etcd.endpoint(0).getScheme()).isEqualTo("https");
      EtcdLeaseManager a =
          nodes.start(
              "node-a",
              config ->
                  config
                      .caFile(certificates.caCert())
                      .certFile(certificates.clientCert())
                      .keyFile(certificates.clientKey()));
      OrphanRecorder watcher = new OrphanRecorder();
      try (Subscription ignored = a.watchOrphans(watcher)) {
        UUID run = UUID.randomUUID();
        assertThat(a.acquire(run).isAcquired()).isTrue();
        assertThat(a.listNodes()).hasSize(1);
        a.releaseAll();
        await("the orphan over TLS")
            .atMost(Duration.ofSeconds(20))
            .until(() -> watcher.count(run) == 1);
      }

      EtcdLeaseManager anonymous =
          nodes.create("node-b", config -> config.caFile(certificates.caCert()));
      assertThatThrownBy(() -> anonymous.start(EtcdNodes.info("node-b")))
          .isInstanceOf(LeaseException.class)
          .hasMessageContaining("etcd at " + etcd.endpoint(0))
          .hasMessageContaining("demands a client certificate")
          .hasMessageContaining("none was given");
    }
  }

  @Test
  void a_ca_that_did_not_sign_etcds_certificate_is_refused_with_a_message_naming_etcd_and_why()
      throws Exception {
    TestCertificates certificates = TestCertificates.create(dir);
    TestCertificates other =
        TestCertificates.create(Files.createDirectories(dir.resolve("other-ca")));
    try (EtcdTestCluster etcd = EtcdTestCluster.startWithTls(1, certificates);
        EtcdNodes nodes = new EtcdNodes(etcd, TTL)) {
      EtcdLeaseManager misled =
          nodes.create(
              "node-a",
              config ->
                  config
                      .caFile(other.caCert())
                      .certFile(certificates.clientCert())
                      .keyFile(certificates.clientKey()));
      assertThatThrownBy(() -> misled.start(EtcdNodes.info("node-a")))
          .isInstanceOf(LeaseUnavailableException.class)
          .satisfies(
              failure ->
                  assertThat(failure.getMessage())
                      .contains("etcd at " + etcd.endpoint(0))
                      .contains("TLS")
                      .contains("not signed by the CA in " + other.caCert())
                      .contains("PKIX path"));
    }
  }

  @Test
  void a_node_with_a_user_limited_to_its_prefix_works_and_one_without_credentials_is_refused() {
    try (EtcdTestCluster etcd = EtcdTestCluster.start(1);
        EtcdNodes nodes = new EtcdNodes(etcd, TTL)) {
      enableAuthentication(etcd, nodes.prefix());

      EtcdLeaseManager a = nodes.start("node-a", config -> config.credentials("baton", "baton-pw"));
      EtcdLeaseManager b = nodes.start("node-b", config -> config.credentials("baton", "baton-pw"));
      OrphanRecorder watcher = new OrphanRecorder();
      try (Subscription ignored = b.watchOrphans(watcher)) {
        UUID run = UUID.randomUUID();
        assertThat(a.acquire(run).isAcquired()).isTrue();
        assertThat(b.acquire(run).isAcquired()).isFalse();
        a.releaseAll();
        await("the orphan with auth")
            .atMost(Duration.ofSeconds(20))
            .until(() -> watcher.count(run) == 1);
      }

      EtcdLeaseManager anonymous = nodes.create("node-c", config -> config);
      assertThatThrownBy(() -> anonymous.start(EtcdNodes.info("node-c")))
          .isInstanceOf(LeaseException.class)
          .isNotInstanceOf(LeaseUnavailableException.class);
      EtcdLeaseManager wrong =
          nodes.create("node-d", config -> config.credentials("baton", "nope"));
      assertThatThrownBy(() -> wrong.start(EtcdNodes.info("node-d")))
          .isInstanceOf(LeaseException.class);
    }
  }

  /** root for administration, and a user "baton" that may read and write the prefix only. */
  private static void enableAuthentication(EtcdTestCluster etcd, String prefix) {
    try (Client admin = Client.builder().endpoints(etcd.endpoints().toArray(URI[]::new)).build()) {
      EtcdNodes.get(admin.getAuthClient().userAdd(bytes("root"), bytes("root-pw")));
      EtcdNodes.get(admin.getAuthClient().roleAdd(bytes("root")));
      EtcdNodes.get(admin.getAuthClient().userGrantRole(bytes("root"), bytes("root")));
      EtcdNodes.get(admin.getAuthClient().userAdd(bytes("baton"), bytes("baton-pw")));
      EtcdNodes.get(admin.getAuthClient().roleAdd(bytes("baton")));
      EtcdNodes.get(
          admin
              .getAuthClient()
              .roleGrantPermission(
                  bytes("baton"),
                  bytes(prefix),
                  bytes(prefixEnd(prefix)),
                  Permission.Type.READWRITE));
      EtcdNodes.get(admin.getAuthClient().userGrantRole(bytes("baton"), bytes("baton")));
      EtcdNodes.get(admin.getAuthClient().authEnable());
    }
  }

  private static String prefixEnd(String prefix) {
    char last = prefix.charAt(prefix.length() - 1);
    return prefix.substring(0, prefix.length() - 1) + (char) (last + 1);
  }
}

package io.baton.lease.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.lease.LeaseManager;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EtcdLeaseConfigTest {
  @TempDir Path dir;

  @Test
  void defaults_point_at_a_local_etcd_with_the_cluster_prefix_and_the_core_ttl() {
    EtcdLeaseConfig config = EtcdLeaseConfig.builder().build();
    assertThat(config.endpoints()).containsExactly(URI.create("http://127.0.0.1:2379"));
    assertThat(config.prefix()).isEqualTo("/baton/default/");
    assertThat(config.leaseTtl()).isEqualTo(LeaseManager.DEFAULT_LEASE_TTL);
    assertThat(config.maxTxnOps()).isEqualTo(128);
    assertThat(config.tls()).isFalse();
  }

  @Test
  void the_default_prefix_follows_the_cluster_name_unless_a_prefix_is_given() {
    assertThat(EtcdLeaseConfig.builder().cluster("prod").build().prefix())
        .isEqualTo("/baton/prod/");
    assertThat(EtcdLeaseConfig.builder().cluster("prod").prefix("/x/").build().prefix())
        .isEqualTo("/x/");
  }

  @Test
  void endpoints_parse_from_a_comma_separated_list() {
    EtcdLeaseConfig config =
        EtcdLeaseConfig.builder().endpoints("http://10.0.0.1:2379, http://10.0.0.2:2379").build();
    assertThat(config.endpoints())
        .containsExactly(URI.create("http://10.0.0.1:2379"), URI.create("http://10.0.0.2:2379"));
  }

  @Test
  void a_lease_ttl_that_etcd_cannot_grant_is_refused_naming_the_key() {
    assertThatThrownBy(() -> EtcdLeaseConfig.builder().leaseTtl(Duration.ofMillis(1500)))
        .hasMessageStartingWith("etcd.leaseTtl")
        .hasMessageContaining("whole seconds")
        .hasMessageContaining("1s500ms");
    assertThatThrownBy(() -> EtcdLeaseConfig.builder().leaseTtl(Duration.ZERO))
        .hasMessageStartingWith("etcd.leaseTtl");
  }

  @Test
  void malformed_values_are_refused_naming_their_key() {
    assertThatThrownBy(() -> EtcdLeaseConfig.builder().endpoints("127.0.0.1:2379"))
        .hasMessageStartingWith("etcd.endpoints");
    assertThatThrownBy(() -> EtcdLeaseConfig.builder().endpoints(List.of()))
        .hasMessageStartingWith("etcd.endpoints");
    assertThatThrownBy(() -> EtcdLeaseConfig.builder().prefix("baton"))
        .hasMessageStartingWith("etcd.prefix");
    assertThatThrownBy(() -> EtcdLeaseConfig.builder().cluster("a/b"))
        .hasMessageStartingWith("etcd.cluster");
    assertThatThrownBy(() -> EtcdLeaseConfig.builder().requestTimeout(Duration.ZERO))
        .hasMessageStartingWith("etcd.requestTimeout");
    assertThatThrownBy(() -> EtcdLeaseConfig.builder().connectTimeout(Duration.ofSeconds(-1)))
        .hasMessageStartingWith("etcd.connectTimeout");
    assertThatThrownBy(() -> EtcdLeaseConfig.builder().maxTxnOps(2))
        .hasMessageStartingWith("etcd.maxTxnOps");
    assertThatThrownBy(() -> EtcdLeaseConfig.builder().caFile(dir.resolve("missing.pem")))
        .hasMessageStartingWith("etcd.tls.caFile");
  }

  @Test
  void tls_needs_https_endpoints_and_a_client_certificate_needs_its_key() throws IOException {
    Path pem = Files.writeString(dir.resolve("some.pem"), "-----BEGIN-----");
    assertThatThrownBy(() -> EtcdLeaseConfig.builder().caFile(pem).build())
        .hasMessageStartingWith("etcd.endpoints")
        .hasMessageContaining("https");
    assertThatThrownBy(
            () ->
                EtcdLeaseConfig.builder().endpoints("https://127.0.0.1:2379").certFile(pem).build())
        .hasMessageStartingWith("etcd.tls.keyFile");
    assertThatThrownBy(
            () -> EtcdLeaseConfig.builder().endpoints("https://a:2379,http://b:2379").build())
        .hasMessageStartingWith("etcd.endpoints");
    EtcdLeaseConfig tls =
        EtcdLeaseConfig.builder().endpoints("https://127.0.0.1:2379").caFile(pem).build();
    assertThat(tls.tls()).isTrue();
  }

  @Test
  void credentials_come_in_pairs_and_never_show_in_the_description() {
    EtcdLeaseConfig config = EtcdLeaseConfig.builder().credentials("baton", "s3cret").build();
    assertThat(config.user()).contains("baton");
    assertThat(config.toString()).doesNotContain("s3cret");
    assertThatThrownBy(() -> EtcdLeaseConfig.builder().credentials(" ", "x"))
        .hasMessageStartingWith("etcd.user");
    assertThatThrownBy(() -> EtcdLeaseConfig.builder().credentials("baton", null))
        .hasMessageStartingWith("etcd.password");
  }
}

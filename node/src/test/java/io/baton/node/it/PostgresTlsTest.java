package io.baton.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.node.http.TestCertificates;
import io.baton.store.StoreUnavailableException;
import io.baton.store.Stores;
import io.baton.store.postgres.PostgresStoreConfig;
import io.baton.store.postgres.PostgresStores;
import io.baton.store.postgres.testkit.PrivatePostgresCluster;
import io.baton.store.postgres.testkit.TestDatabase;
import io.baton.time.SystemScheduler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The PostgreSQL stores over TLS with {@code sslmode=verify-full}, against a private PostgreSQL
 * server that serves a certificate {@code openssl} made for this run: the stores open and their
 * connection is encrypted; a CA that did not sign the server's certificate is refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresTlsTest {
  private TestCertificates certificates;
  private PrivatePostgresCluster cluster;
  private TestDatabase database;

  @BeforeAll
  void startPostgresWithTls() throws Exception {
    Path dir = Files.createTempDirectory("baton-pg-tls");
    certificates = new TestCertificates(dir);
    certificates.ca("test-ca");
    certificates.ca("other-ca");
    certificates.server("postgres", "test-ca");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path key = certificates.file("postgres.key");
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
    if ("root".equals(System.getProperty("user.name"))) {
      // the server runs as postgres and wants its key private to itself
      new ProcessBuilder("chown", "postgres", key.toString()).inheritIO().start().waitFor();
    }
    cluster =
        PrivatePostgresCluster.create(
            "ssl=on", "ssl_cert_file=" + certificates.file("postgres.pem"), "ssl_key_file=" + key);
    database = cluster.createDatabase("tls");
  }

  @AfterAll
  void stop() {
    if (database != null) {
      database.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void the_stores_open_with_verify_full_and_their_connection_is_encrypted() throws Exception {
    try (Stores stores =
        PostgresStores.create(
            config("test-ca.pem", Duration.ofSeconds(30)), SystemScheduler.systemClock())) {
      stores.metadata().ping();
    }
    Properties properties = new Properties();
    properties.setProperty("user", "postgres");
    properties.setProperty("sslmode", "verify-full");
    try (Connection connection = DriverManager.getConnection(url("test-ca.pem"), properties);
        ResultSet ssl =
            connection
                .createStatement()
                .executeQuery("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")) {
      assertThat(ssl.next()).isTrue();
      assertThat(ssl.getBoolean(1)).as("the session is encrypted").isTrue();
    }
  }

  @Test
  void a_ca_that_did_not_sign_the_servers_certificate_is_refused() {
    assertThatThrownBy(
            () ->
                PostgresStores.create(
                    config("other-ca.pem", Duration.ofSeconds(2)), SystemScheduler.systemClock()))
        .isInstanceOf(StoreUnavailableException.class)
        .satisfies(
            failure ->
                assertThat(failure.getMessage())
                    .contains("PostgreSQL at jdbc:postgresql://127.0.0.1:" + cluster.port())
                    .contains("sslmode=verify-full")
                    .contains("certification path")
                    .doesNotContain("other-ca.pem"));
  }

  private PostgresStoreConfig config(String ca, Duration retryWindow) {
    return PostgresStoreConfig.builder(url(ca))
        .user("postgres")
        .password("")
        .sslMode("verify-full")
        .maxPoolSize(2)
        .connectionTimeout(Duration.ofSeconds(5))
        .transientRetryWindow(retryWindow)
        .retryBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
        .build();
  }

  private String url(String ca) {
    return "jdbc:postgresql://127.0.0.1:"
        + cluster.port()
        + "/"
        + database.name()
        + "?sslrootcert="
        + certificates.file(ca);
  }
}

package io.baton.node.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.JournalCodec;
import io.baton.lease.etcd.EtcdTestCluster;
import io.baton.node.auth.ApiTokens;
import io.baton.node.http.TestCertificates;
import io.baton.store.postgres.testkit.PostgresServer;
import io.baton.store.postgres.testkit.PrivatePostgresCluster;
import io.baton.store.postgres.testkit.TestDatabase;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.etcd.jetcd.auth.Permission;
import io.etcd.jetcd.options.GetOption;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One real {@code baton node} whose every connection is encrypted at once: HTTPS on its port, its
 * PostgreSQL with {@code sslmode=verify-full} (the server refuses connections without TLS), and
 * etcd over TLS with a client certificate and a user and password (etcd refuses anything else).
 * Every certificate is made for this run (a CA and server certificate by openssl for HTTPS and
 * PostgreSQL, another CA, server and client certificate by keytool for etcd). The node serves a run
 * from submit to success, its PostgreSQL sessions are all encrypted, and its etcd keys are where
 * its user may write.
 */
class EncryptedNodeProcessIT {
  private static final String FLOW =
      """
      name: sealed
      steps:
        - name: greet
          capability: noop
          params: {greeting: "hello {{ input.name }}"}
        - name: done
          capability: noop
          params: {said: "{{ steps.greet.output.greeting }}"}
      """;

  @Test
  void a_node_whose_every_connection_is_encrypted_serves_a_run_end_to_end() throws Exception {
    Path dir = ProcessTestSupport.workDir(Map.of());
    Path tls = Files.createTempDirectory("baton-it-encrypted");
    TestCertificates certificates = new TestCertificates(tls);
    certificates.ca("test-ca");
    certificates.server("node", "test-ca");
    certificates.server("postgres", "test-ca");
    io.baton.lease.etcd.TestCertificates etcdCertificates =
        io.baton.lease.etcd.TestCertificates.create(Files.createDirectories(tls.resolve("etcd")));
    Path ca = certificates.file("test-ca.pem");
    String cluster = "sealed-" + System.nanoTime();
    String prefix = "/baton/" + cluster + "/";

    try (PrivatePostgresCluster postgres = postgresRequiringTls(certificates, tls);
        TestDatabase db =
            TestDatabase.create(
                new PostgresServer(
                    "jdbc:postgresql://127.0.0.1:"
                        + postgres.port()
                        + "/postgres?sslmode=verify-full&sslrootcert="
                        + ca,
                    "postgres",
                    ""),
                "sealed");
        EtcdTestCluster etcd = EtcdTestCluster.startWithTls(1, etcdCertificates)) {
      enableEtcdAuthentication(etcd, etcdCertificates, prefix);
      assertThatThrownBy(() -> plainConnection(postgres.port(), db.name()))
          .as("the server itself refuses PostgreSQL without TLS")
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("no encryption");

      String token = ApiTokens.generate();
      Path keys = dir.resolve("keys.yaml");
      Files.writeString(
          keys,
          "keys:\n  - {name: deployer, role: developer, hash: \""
              + ApiTokens.hash(token)
              + "\"}\n");
      Path etcdPassword = dir.resolve("etcd-password");
      Files.writeString(etcdPassword, "baton-node-pw\n");
      int port = ProcessTestSupport.freePort();
      String api = "https://127.0.0.1:" + port;
      Map<String, String> env = ProcessTestSupport.cleanEnv();
      env.put("BATON_NODE_ID", "sealed-1");
      env.put("BATON_CLUSTER", cluster);
      env.put("BATON_HTTP_PORT", String.valueOf(port));
      env.put("BATON_HTTP_TLS_CERT_FILE", certificates.file("node.pem").toString());
      env.put("BATON_HTTP_TLS_KEY_FILE", certificates.file("node.key").toString());
      env.put("BATON_AUTH_MODE", "keys");
      env.put("BATON_AUTH_KEYS_FILE", keys.toString());
      env.put("BATON_STORE_TYPE", "postgres");
      env.put("BATON_STORE_URL", db.jdbcUrl());
      env.put("BATON_STORE_USER", "postgres");
      env.put("BATON_STORE_SSL_MODE", "verify-full");
      env.put("BATON_LEASE_TYPE", "etcd");
      env.put("BATON_LEASE_ENDPOINTS", etcd.endpoint(0).toString());
      env.put("BATON_LEASE_CA_FILE", etcdCertificates.caCert().toString());
      env.put("BATON_LEASE_CERT_FILE", etcdCertificates.clientCert().toString());
      env.put("BATON_LEASE_KEY_FILE", etcdCertificates.clientKey().toString());
      env.put("BATON_LEASE_USER", "baton-node");
      env.put("BATON_LEASE_PASSWORD_FILE", etcdPassword.toString());
      assertThat(etcd.endpoint(0).getScheme()).isEqualTo("https");

      HttpClient client = HttpClient.newBuilder().sslContext(TestCertificates.trusting(ca)).build();
      try (BatonProcess node = BatonProcess.start(dir, env, "node")) {
        await("the node ready over HTTPS")
            .atMost(Duration.ofMinutes(3))
            .pollInterval(Duration.ofMillis(500))
            .until(
                () -> {
                  if (!node.isAlive()) {
                    throw new IllegalStateException("the node exited:\n" + node.output());
                  }
                  return status(client, api + "/health/ready") == 200;
                });
        assertThat(BatonProcess.status("http://127.0.0.1:" + port + "/health/ready"))
            .as("plain HTTP reaches nothing on the node's port")
            .isNotEqualTo(200);

        HttpResponse<String> applied =
            client.send(
                authorized(api + "/api/v1/flows", token)
                    .header("Content-Type", "application/yaml")
                    .POST(HttpRequest.BodyPublishers.ofString(FLOW))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(applied.statusCode()).as(applied.body()).isEqualTo(201);
        HttpResponse<String> submitted =
            client.send(
                authorized(api + "/api/v1/runs", token)
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"flow\": \"sealed\", \"input\": {\"name\": \"tls\"}}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(201);
        String runId = JournalCodec.mapper().readTree(submitted.body()).path("id").asText();

        await("the run succeeds")
            .atMost(Duration.ofMinutes(1))
            .pollInterval(Duration.ofMillis(250))
            .until(
                () -> run(client, api, runId, token).path("status").asText(), "SUCCEEDED"::equals);
        JsonNode run = run(client, api, runId, token);
        assertThat(run.toString()).contains("hello tls").contains("deployer");

        assertThat(nodeSessions(postgres.port(), db.name(), ca))
            .as("the node's PostgreSQL sessions: encrypted / all")
            .satisfies(sessions -> assertThat(sessions[1]).isPositive())
            .satisfies(sessions -> assertThat(sessions[0]).isEqualTo(sessions[1]));
        assertThat(etcdKeys(etcd, etcdCertificates, prefix + "nodes/"))
            .as("the node announced itself under its prefix, as its etcd user")
            .contains(prefix + "nodes/sealed-1");
      }
    }
  }

  /**
   * A private PostgreSQL with TLS on whose host-based authentication refuses every TCP connection
   * without it.
   */
  private static PrivatePostgresCluster postgresRequiringTls(
      TestCertificates certificates, Path tls) throws IOException, InterruptedException {
    Files.setPosixFilePermissions(tls, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path key = certificates.file("postgres.key");
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
    Path hba = tls.resolve("pg_hba.conf");
    Files.writeString(
        hba,
        """
        local all all trust
        hostssl all all 127.0.0.1/32 trust
        hostnossl all all 127.0.0.1/32 reject
        """);
    if ("root".equals(System.getProperty("user.name"))) {
      // the server runs as postgres and wants its key private to itself
      new ProcessBuilder("chown", "postgres", key.toString(), hba.toString())
          .inheritIO()
          .start()
          .waitFor();
    }
    return PrivatePostgresCluster.create(
        "ssl=on",
        "ssl_cert_file=" + certificates.file("postgres.pem"),
        "ssl_key_file=" + key,
        "hba_file=" + hba);
  }

  private static void plainConnection(int port, String database) throws SQLException {
    Properties login = new Properties();
    login.setProperty("user", "postgres");
    login.setProperty("sslmode", "disable");
    DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database, login)
        .close();
  }

  /** The node's sessions on its database (all but this one): {encrypted, all}. */
  private static long[] nodeSessions(int port, String database, Path ca) throws SQLException {
    Properties login = new Properties();
    login.setProperty("user", "postgres");
    login.setProperty("sslmode", "verify-full");
    login.setProperty("sslrootcert", ca.toString());
    try (Connection connection =
            DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + port + "/" + database, login);
        ResultSet sessions =
            connection
                .createStatement()
                .executeQuery(
                    "SELECT count(*) FILTER (WHERE s.ssl), count(*) FROM pg_stat_activity a"
                        + " JOIN pg_stat_ssl s USING (pid)"
                        + " WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()")) {
      sessions.next();
      return new long[] {sessions.getLong(1), sessions.getLong(2)};
    }
  }

  /**
   * Users root and baton-node (which may read and write {@code prefix} only), then auth on. The
   * client certificate's name (baton) is no etcd user, so the certificate alone grants nothing.
   */
  private static void enableEtcdAuthentication(
      EtcdTestCluster etcd, io.baton.lease.etcd.TestCertificates certificates, String prefix)
      throws Exception {
    try (Client admin = etcdClient(etcd, certificates).build()) {
      var auth = admin.getAuthClient();
      get(auth.userAdd(bytes("root"), bytes("root-pw")));
      get(auth.roleAdd(bytes("root")));
      get(auth.userGrantRole(bytes("root"), bytes("root")));
      get(auth.userAdd(bytes("baton-node"), bytes("baton-node-pw")));
      get(auth.roleAdd(bytes("baton-node")));
      get(
          auth.roleGrantPermission(
              bytes("baton-node"),
              bytes(prefix),
              bytes(prefix.substring(0, prefix.length() - 1) + "0"),
              Permission.Type.READWRITE));
      get(auth.userGrantRole(bytes("baton-node"), bytes("baton-node")));
      get(auth.authEnable());
    }
  }

  private static List<String> etcdKeys(
      EtcdTestCluster etcd, io.baton.lease.etcd.TestCertificates certificates, String prefix)
      throws Exception {
    try (Client root =
        etcdClient(etcd, certificates).user(bytes("root")).password(bytes("root-pw")).build()) {
      return get(root.getKVClient().get(bytes(prefix), GetOption.builder().isPrefix(true).build()))
          .getKvs()
          .stream()
          .map(kv -> kv.getKey().toString(StandardCharsets.UTF_8))
          .toList();
    }
  }

  private static ClientBuilder etcdClient(
      EtcdTestCluster etcd, io.baton.lease.etcd.TestCertificates certificates) throws Exception {
    return Client.builder()
        .endpoints(etcd.endpoint(0))
        .sslContext(
            ssl ->
                ssl.trustManager(certificates.caCert().toFile())
                    .keyManager(
                        certificates.clientCert().toFile(), certificates.clientKey().toFile()));
  }

  private static JsonNode run(HttpClient client, String api, String runId, String token)
      throws Exception {
    HttpResponse<String> response =
        client.send(
            authorized(api + "/api/v1/runs/" + runId, token).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    return JournalCodec.mapper().readTree(response.body());
  }

  private static HttpRequest.Builder authorized(String url, String token) {
    return HttpRequest.newBuilder(URI.create(url))
        .timeout(Duration.ofSeconds(30))
        .header("Authorization", "Bearer " + token);
  }

  private static int status(HttpClient client, String url) {
    try {
      return client
          .send(
              HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static <T> T get(CompletableFuture<T> future) throws Exception {
    return future.get(30, TimeUnit.SECONDS);
  }

  private static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }
}

package io.baton.node.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.baton.node.auth.ApiTokens;
import io.baton.node.cli.ExitCodes;
import io.baton.node.http.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A real {@code baton dev} process with API keys and HTTPS (certificates made by openssl for this
 * run), driven by the real CLI: without a token it is refused (exit 9, ExitCodes.DENIED), with the
 * CA and a key it serves, another CA is refused naming the server, and the run records who
 * submitted it.
 */
class SecuredNodeProcessIT {
  @Test
  void a_node_with_keys_and_https_serves_only_callers_with_a_key_over_a_verified_connection()
      throws Exception {
    Path dir = ProcessTestSupport.workDir(Map.of("held.yaml", ProcessTestSupport.HELD_FLOW));
    TestCertificates certificates = new TestCertificates(Files.createTempDirectory("baton-it-tls"));
    certificates.ca("test-ca");
    certificates.ca("other-ca");
    certificates.server("node", "test-ca");
    String token = ApiTokens.generate();
    Path keys = dir.resolve("keys.yaml");
    Files.writeString(
        keys,
        "keys:\n  - {name: ci-operator, role: operator, hash: \""
            + ApiTokens.hash(token)
            + "\"}\n");
    int port = ProcessTestSupport.freePort();
    String server = "https://127.0.0.1:" + port;
    Map<String, String> env = ProcessTestSupport.cleanEnv();
    env.put("BATON_AUTH_MODE", "keys");
    env.put("BATON_AUTH_KEYS_FILE", keys.toString());
    env.put("BATON_HTTP_TLS_CERT_FILE", certificates.file("node.pem").toString());
    env.put("BATON_HTTP_TLS_KEY_FILE", certificates.file("node.key").toString());
    String ca = certificates.file("test-ca.pem").toString();
    try (BatonProcess dev =
        BatonProcess.start(dir, env, "dev", "--http-port", String.valueOf(port))) {
      await()
          .atMost(Duration.ofMinutes(3))
          .pollInterval(Duration.ofMillis(500))
          .until(
              () ->
                  BatonProcess.run(dir, env, "version", "--server", server, "--ca-cert", ca)
                      .output()
                      .contains("server "));

      BatonProcess.Result refused =
          BatonProcess.run(dir, env, "runs", "--server", server, "--ca-cert", ca);
      assertThat(refused.exitCode()).as(refused.output()).isEqualTo(ExitCodes.DENIED);
      assertThat(refused.output()).contains("Not authenticated");

      BatonProcess.Result otherCa =
          BatonProcess.run(
              dir,
              env,
              "runs",
              "--server",
              server,
              "--ca-cert",
              certificates.file("other-ca.pem").toString(),
              "--token",
              token);
      assertThat(otherCa.exitCode()).as(otherCa.output()).isEqualTo(1);
      assertThat(otherCa.output()).contains("TLS to " + server).contains("other-ca.pem");

      BatonProcess.Result submitted =
          BatonProcess.run(
              dir,
              env,
              "submit",
              "held",
              "--input",
              "{\"url\": \"http://127.0.0.1:9/none\", \"n\": 1}",
              "--server",
              server,
              "--ca-cert",
              ca,
              "--token",
              token);
      assertThat(submitted.exitCode()).as(submitted.output()).isZero();
      String runId = submitted.output().trim().lines().reduce((a, b) -> b).orElseThrow();
      BatonProcess.Result shown =
          BatonProcess.run(
              dir,
              env,
              "run",
              runId,
              "--json",
              "--server",
              server,
              "--ca-cert",
              ca,
              "--token",
              token);
      assertThat(shown.exitCode()).as(shown.output()).isZero();
      assertThat(shown.output()).contains("\"commands\"").contains("ci-operator");
    }
  }
}

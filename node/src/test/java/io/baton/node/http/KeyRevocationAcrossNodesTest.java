package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.node.auth.ApiKeys;
import io.baton.node.auth.ApiTokens;
import io.baton.node.auth.Authenticator;
import io.baton.node.auth.StoredKeys;
import io.baton.time.SystemScheduler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two nodes on one PostgreSQL database, each with its own connection pool as two processes would
 * have: a key created through node A works on node B, and once revoked on A, B refuses it within 5
 * s (it re-reads the stored keys every {@link StoredKeys#REFRESH}).
 */
class KeyRevocationAcrossNodesTest extends ApiTestBase {
  private static final Logger log = LoggerFactory.getLogger(KeyRevocationAcrossNodesTest.class);

  private final String adminToken = ApiTokens.generate();
  private Path keysFile;

  @Override
  protected TestBackend createBackend() {
    return new PostgresEtcdBackend();
  }

  @Override
  protected Authenticator authenticator() {
    try {
      if (keysFile == null) {
        keysFile = Files.createTempFile("baton-keys", ".yaml");
        Files.writeString(
            keysFile,
            "keys:\n  - {name: root, role: admin, hash: \"" + ApiTokens.hash(adminToken) + "\"}\n");
      }
      return ApiKeys.load(keysFile, SystemScheduler.systemClock());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void a_key_revoked_on_one_node_is_refused_by_the_other_within_five_seconds() throws Exception {
    TestNode other = startNode(nodeId("b"));
    ApiCalls adminOnA = node.calls().withToken(adminToken);
    Reply created = adminOnA.post("/api/v1/keys", "{\"name\": \"ci\", \"role\": \"operator\"}");
    assertThat(created.status()).as("%s", created).isEqualTo(201);
    JsonNode key = created.json();
    ApiCalls keyOnB = other.calls().withToken(key.get("token").asText());
    await()
        .atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(50))
        .untilAsserted(() -> assertThat(keyOnB.get("/api/v1/runs").status()).isEqualTo(200));

    Reply revoked =
        adminOnA.send(
            adminOnA
                .request("/api/v1/keys/" + key.get("id").asText())
                .header("Content-Type", "application/json")
                .method("DELETE", HttpRequest.BodyPublishers.ofString("{\"reason\": \"test\"}")));
    assertThat(revoked.status()).as("%s", revoked).isEqualTo(200);
    long start = System.nanoTime();
    await()
        .atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(20))
        .untilAsserted(() -> assertThat(keyOnB.get("/api/v1/runs").status()).isEqualTo(401));
    log.info(
        "node B refused the key revoked on node A after {} ms",
        Duration.ofNanos(System.nanoTime() - start).toMillis());
    assertThat(keyOnB.get("/api/v1/runs").json().get("detail").asText()).contains("revoked");
    assertThat(node.calls().withToken(key.get("token").asText()).get("/api/v1/runs").status())
        .isEqualTo(401);
  }
}

package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.engine.EngineMetrics;
import io.baton.store.RunWriter;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code /api/cluster}, {@code /api/version} and {@code /api/recovery/incomplete}. */
public class ClusterApiTest extends ApiTestBase {

  @Test
  void the_cluster_lists_every_live_node_with_its_lease_state_and_owned_runs() throws Exception {
    TestNode other = startNode(nodeId("b"));
    String held = uniqueName("held");
    applyFlow(TestFlows.held(held));
    UUID runId = submit(held);
    await().atMost(TIMEOUT).until(() -> steps.holding(runId));

    Reply reply = http.get("/api/cluster");

    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.json().get("self").asText()).isEqualTo(node.nodeId());
    JsonNode nodes = reply.json().get("nodes");
    assertThat(nodes).extracting(n -> n.get("id").asText()).contains(node.nodeId(), other.nodeId());
    assertThat(nodes)
        .filteredOn(n -> n.get("id").asText().equals(node.nodeId()))
        .singleElement()
        .satisfies(
            self -> {
              assertThat(self.get("self").asBoolean()).isTrue();
              assertThat(self.get("leaseState").asText()).isEqualTo("CONNECTED");
              assertThat(self.get("ownedRuns").asInt()).isGreaterThanOrEqualTo(1);
              assertThat(self.get("draining").asBoolean()).isFalse();
              assertThat(self.get("startedAt").asText()).endsWith("Z");
              assertThat(self.has("address")).isTrue();
              assertThat(self.has("version")).isTrue();
            });
    assertThat(nodes)
        .filteredOn(n -> n.get("id").asText().equals(other.nodeId()))
        .singleElement()
        .satisfies(
            peer -> {
              assertThat(peer.get("self").asBoolean()).isFalse();
              assertThat(peer.get("leaseState").asText()).isEqualTo("ALIVE");
              assertThat(peer.get("ownedRuns").asInt()).isZero();
            });
    steps.release(runId);
  }

  /**
   * What an operator reads in a failure, for every node and not only the one that answers: when
   * each lease ends unless renewed, and the claims and fenced-out writes each node announced.
   */
  @Test
  void the_cluster_shows_each_nodes_lease_expiry_claims_and_fenced_out_writes() throws Exception {
    TestNode other = startNode(nodeId("fenced"));
    other.metrics().counter(EngineMetrics.JOURNAL_FENCED_OUT).inc(3);
    other.metrics().counter(EngineMetrics.CLAIMS).inc(5);
    // the peer announces its load (and so its counts) at each rebalancing round
    assertThat(other.calls().post("/api/v1/cluster/rebalance?dryRun=false", "").status())
        .isEqualTo(200);

    Instant before = Instant.now();
    JsonNode nodes = http.get("/api/v1/cluster").json().get("nodes");
    Instant after = Instant.now();

    assertThat(nodes)
        .filteredOn(n -> n.get("id").asText().equals(other.nodeId()))
        .singleElement()
        .satisfies(
            peer -> {
              assertThat(peer.get("fencedOutWrites").asLong()).isEqualTo(3);
              assertThat(peer.get("claims").asLong()).isGreaterThanOrEqualTo(5);
              assertLeaseEndsWithinATtl(peer, before, after);
            });
    assertThat(nodes)
        .filteredOn(n -> n.get("id").asText().equals(node.nodeId()))
        .singleElement()
        .satisfies(
            self -> {
              assertThat(self.get("fencedOutWrites").asLong()).isZero();
              assertLeaseEndsWithinATtl(self, before, after);
            });
  }

  private static void assertLeaseEndsWithinATtl(JsonNode node, Instant before, Instant after) {
    Instant endsAt = Instant.parse(node.get("leaseExpiresAt").asText());
    // the test nodes' lease TTL is 5 s; etcd answers in whole seconds, rounded up
    assertThat(endsAt).isAfter(before).isBeforeOrEqualTo(after.plusSeconds(6));
    assertThat(node.get("leaseRemainingMillis").asLong()).isPositive().isLessThanOrEqualTo(6_000);
  }

  @Test
  void rebalance_shows_the_plan_and_refuses_a_bad_dry_run() {
    Reply plan = http.post("/api/cluster/rebalance?dryRun=true", "");
    assertThat(plan.status()).isEqualTo(200);
    assertThat(plan.json().get("dryRun").asBoolean()).isTrue();
    assertThat(plan.json().get("moves").isArray()).isTrue();

    Reply bad = http.post("/api/cluster/rebalance?dryRun=maybe", "");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.body()).contains("dryRun");
  }

  @Test
  void version_names_the_node_and_its_version() {
    Reply reply = http.get("/api/version");

    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.json().get("nodeId").asText()).isEqualTo(node.nodeId());
    assertThat(reply.json().get("version").asText()).isEqualTo("test-version");
  }

  @Test
  void incomplete_runs_are_the_running_and_waiting_ones_with_owner_and_age() {
    String held = uniqueName("held");
    String approval = uniqueName("approval");
    String quick = uniqueName("quick");
    applyFlow(TestFlows.held(held));
    applyFlow(TestFlows.approval(approval));
    applyFlow(TestFlows.quick(quick));
    UUID running = submit(held);
    UUID waiting = submit(approval);
    UUID finished = submit(quick);
    await().atMost(TIMEOUT).until(() -> steps.holding(running));
    awaitApprovalRequested(waiting, "ask");
    awaitStatus(finished, "SUCCEEDED");

    Reply reply = http.get("/api/recovery/incomplete");

    assertThat(reply.status()).isEqualTo(200);
    JsonNode runs = reply.json().get("runs");
    assertThat(runs)
        .extracting(r -> r.get("id").asText())
        .contains(running.toString(), waiting.toString())
        .doesNotContain(finished.toString());
    assertThat(runs)
        .filteredOn(r -> r.get("id").asText().equals(running.toString()))
        .singleElement()
        .satisfies(
            run -> {
              assertThat(run.get("status").asText()).isEqualTo("RUNNING");
              assertThat(run.get("flow").asText()).isEqualTo(held);
              assertThat(run.get("owner").asText()).isEqualTo(node.nodeId());
              assertThat(run.get("ownerAlive").asBoolean()).isTrue();
              assertThat(run.get("age").asText()).matches("[0-9dhms]+");
              assertThat(run.get("createdAt").asText()).endsWith("Z");
            });
    assertThat(runs)
        .filteredOn(r -> r.get("id").asText().equals(waiting.toString()))
        .singleElement()
        .satisfies(run -> assertThat(run.get("status").asText()).isEqualTo("WAITING"));
    assertProblem(http.get("/api/recovery/incomplete?limit=-1"), 400, "invalid-request");
    steps.release(running);
  }

  @Test
  void a_run_this_node_cannot_load_is_shown_set_aside_with_its_reason_and_counted()
      throws Exception {
    TestNode ghost = startNode(nodeId("ghost"));
    RunWriter unloadable =
        new RunWriter(node.node().stores().journal(), Instant.now())
            .running(uniqueName("vanished"), ghost.nodeId(), ghost.node().leases().nodeToken());
    ghost.node().drain().get();

    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () -> {
              node.node().claimPass().join();
              assertThat(http.get("/api/recovery/incomplete").json().get("setAside"))
                  .extracting(r -> r.get("id").asText())
                  .contains(unloadable.root().toString());
            });
    JsonNode reply = http.get("/api/recovery/incomplete").json();
    assertThat(reply.get("setAside"))
        .filteredOn(r -> r.get("id").asText().equals(unloadable.root().toString()))
        .singleElement()
        .satisfies(
            aside -> {
              assertThat(aside.get("reason").asText()).contains("no flow definition with hash");
              assertThat(aside.get("attempts").asInt()).isEqualTo(1);
              assertThat(aside.get("retryAt").asText()).endsWith("Z");
            });
    assertThat(reply.get("runs"))
        .filteredOn(r -> r.get("id").asText().equals(unloadable.root().toString()))
        .singleElement()
        .satisfies(
            run -> {
              assertThat(run.get("status").asText()).isEqualTo("RUNNING");
              assertThat(run.get("setAside").get("reason").asText()).contains("flow");
            });
    assertThat(http.get("/metrics").body()).contains("baton_recovery_set_aside 1");
  }
}

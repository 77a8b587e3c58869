package io.baton.node.process;

import static io.baton.node.process.ProcessTestSupport.applyFlow;
import static io.baton.node.process.ProcessTestSupport.clusterNodeEnv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.baton.client.BatonEvent;
import io.baton.client.BatonEvents;
import io.baton.lease.etcd.EtcdTestCluster;
import io.baton.store.postgres.testkit.TestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The outbox under crashes, on real processes: an application thread commits business rows with
 * {@code BatonEvents.enqueue} in the same transactions (and rolls some back) while two {@code baton
 * node} processes on PostgreSQL and etcd are killed with SIGKILL and restarted at random moments.
 * Runs created = committed rows, no (flow, key) twice, no run for a rolled-back row.
 */
class EnqueueUnderKillsIT {
  private static final int COMMITTED = Integer.getInteger("baton.it.events.committed", 2000);
  private static final int ROLLED_BACK = Integer.getInteger("baton.it.events.rolledBack", 200);
  private static final String FLOW =
      """
      name: fulfil
      trigger: {event: app.order.created, key: "{{ event.data.orderId }}"}
      steps:
        - name: only
          capability: noop
          params: {order: "{{ input.orderId }}"}
      """;

  @Test
  void every_committed_row_starts_one_run_and_no_rolled_back_row_any_while_nodes_are_killed()
      throws Exception {
    Random random = new Random(Long.getLong("baton.it.seed", 11));
    Path dir = ProcessTestSupport.workDir(Map.of());
    String cluster = "outbox-" + System.nanoTime();
    try (EtcdTestCluster etcd = EtcdTestCluster.start(1);
        TestDatabase db = TestDatabase.create("outbox")) {
      List<Map<String, String>> envs = new ArrayList<>();
      List<String> apis = new ArrayList<>();
      List<BatonProcess> nodes = new ArrayList<>();
      try {
        for (String id : List.of("node-a", "node-b")) {
          int port = ProcessTestSupport.freePort();
          envs.add(clusterNodeEnv(id, port, db, etcd, cluster, Duration.ofSeconds(1)));
          apis.add("http://127.0.0.1:" + port);
        }
        for (int i = 0; i < 2; i++) {
          nodes.add(BatonProcess.start(dir, envs.get(i), "node"));
        }
        for (int i = 0; i < 2; i++) {
          nodes.get(i).awaitReady(apis.get(i), Duration.ofMinutes(3));
        }
        applyFlow(apis.get(0), FLOW);

        CompletableFuture<Void> application =
            CompletableFuture.runAsync(() -> application(db, random.nextLong()));
        int kills = 0;
        while (!application.isDone()) {
          // Wait for a random moment (or the application's end, whichever comes first).
          application
              .handle((ok, failure) -> (Void) null)
              .completeOnTimeout(null, 500 + random.nextInt(2500), TimeUnit.MILLISECONDS)
              .get();
          if (application.isDone()) {
            break;
          }
          int victim = random.nextInt(2);
          nodes.get(victim).kill();
          nodes.get(victim).awaitExit(Duration.ofSeconds(30));
          nodes.set(victim, BatonProcess.start(dir, envs.get(victim), "node"));
          kills++;
        }
        application.get();
        for (int i = 0; i < 2; i++) {
          nodes.get(i).awaitReady(apis.get(i), Duration.ofMinutes(3));
        }
        await()
            .atMost(Duration.ofMinutes(3))
            .pollInterval(Duration.ofMillis(500))
            .until(
                () ->
                    count(db, "SELECT count(*) FROM runs WHERE flow_name = 'fulfil'") >= COMMITTED);
        await()
            .atMost(Duration.ofMinutes(2))
            .pollInterval(Duration.ofMillis(500))
            .until(() -> count(db, "SELECT count(*) FROM event_outbox") == 0);

        System.out.printf(
            "%d committed, %d rolled back, %d SIGKILLs and restarts while committing%n",
            COMMITTED, ROLLED_BACK, kills);
        assertThat(kills).as("nodes killed while the application committed").isPositive();
        assertThat(count(db, "SELECT count(*) FROM runs WHERE flow_name = 'fulfil'"))
            .as("runs created")
            .isEqualTo(COMMITTED);
        assertThat(
                count(
                    db,
                    "SELECT count(DISTINCT idempotency_key) FROM runs WHERE flow_name = 'fulfil'"))
            .as("distinct (flow, key)")
            .isEqualTo(COMMITTED);
        assertThat(
                count(
                    db,
                    "SELECT count(*) FROM runs r JOIN app_orders o ON o.id = (r.input ->> 'orderId')::int"
                        + " WHERE r.flow_name = 'fulfil'"))
            .as("runs whose row was committed")
            .isEqualTo(COMMITTED);
      } finally {
        for (BatonProcess node : nodes) {
          node.close();
        }
      }
    }
  }

  /**
   * Commits {@link #COMMITTED} rows and rolls back {@link #ROLLED_BACK}, each with its event, paced
   * (a millisecond or two per transaction) so that the kills fall while it writes.
   */
  private static void application(TestDatabase db, long seed) {
    Random random = new Random(seed);
    try (Connection app = db.connect()) {
      try (Statement ddl = app.createStatement()) {
        ddl.execute("CREATE TABLE app_orders (id int PRIMARY KEY)");
      }
      app.setAutoCommit(false);
      int committed = 0;
      int rolledBack = 0;
      for (int order = 0; committed < COMMITTED || rolledBack < ROLLED_BACK; order++) {
        boolean commit =
            rolledBack >= ROLLED_BACK
                || (committed < COMMITTED
                    && random.nextInt(COMMITTED + ROLLED_BACK) >= ROLLED_BACK);
        try (PreparedStatement insert = app.prepareStatement("INSERT INTO app_orders VALUES (?)")) {
          insert.setInt(1, order);
          insert.executeUpdate();
        }
        BatonEvents.enqueue(
            app,
            new BatonEvent(
                "order-" + order,
                "/app",
                "app.order.created",
                null,
                "{\"orderId\": " + order + "}"));
        if (commit) {
          app.commit();
          committed++;
        } else {
          app.rollback();
          rolledBack++;
        }
        TimeUnit.MILLISECONDS.sleep(random.nextInt(3));
      }
    } catch (Exception e) {
      throw new IllegalStateException("the application failed", e);
    }
  }

  private static long count(TestDatabase db, String sql) throws Exception {
    try (Connection connection = db.connect();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }
}

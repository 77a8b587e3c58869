package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.client.BatonEvent;
import io.baton.client.BatonEvents;
import io.baton.store.RunQuery;
import io.baton.store.RunRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * An application enqueues events with {@code baton-client} in its own transactions on the Baton
 * database while two nodes run on PostgreSQL and etcd: every committed event starts exactly one run
 * of the matching flow (even when enqueued again), no rolled-back one starts any.
 */
class EnqueueInApplicationTransactionTest extends ApiTestBase {
  private PostgresEtcdBackend backend;

  @Override
  protected TestBackend createBackend() {
    backend = new PostgresEtcdBackend();
    return backend;
  }

  @Test
  void committed_events_start_one_run_each_and_rolled_back_ones_none() throws Exception {
    startNode(nodeId("b"));
    String flow = uniqueName("fulfil");
    String type = uniqueName("app") + ".order.created";
    applyFlow(
        """
        name: %s
        trigger: {event: "%s", key: "{{ event.data.orderId }}"}
        steps: [{name: only, capability: noop, params: {order: "{{ input.orderId }}"}}]
        """
            .formatted(flow, type));

    int committed = 60;
    int rolledBack = 15;
    try (Connection app = backend.database().connect()) {
      try (Statement ddl = app.createStatement()) {
        ddl.execute("CREATE TABLE app_orders (id int PRIMARY KEY)");
      }
      app.setAutoCommit(false);
      for (int order = 0; order < committed + rolledBack; order++) {
        try (PreparedStatement insert = app.prepareStatement("INSERT INTO app_orders VALUES (?)")) {
          insert.setInt(1, order);
          insert.executeUpdate();
        }
        BatonEvent event =
            new BatonEvent("order-" + order, "/app", type, null, "{\"orderId\": " + order + "}");
        BatonEvents.enqueue(app, event);
        if (order < committed) {
          app.commit();
          // The application retries: the same event again, in a transaction of its own.
          BatonEvents.enqueue(app, event);
          app.commit();
        } else {
          app.rollback();
        }
      }
    }

    await()
        .atMost(TIMEOUT)
        .until(
            () -> runsOf(flow).stream().filter(r -> r.status().isTerminal()).count() == committed);
    List<RunRecord> runs = runsOf(flow);
    assertThat(runs).hasSize(committed);
    Set<Integer> orders =
        runs.stream().map(run -> run.input().get("orderId").asInt()).collect(Collectors.toSet());
    assertThat(orders).hasSize(committed).allMatch(order -> order < committed);
    assertThat(node.node().events().store().outboxSize()).isZero();
  }

  private List<RunRecord> runsOf(String flow) {
    return node.node().orchestrator().list(RunQuery.all().withFlow(flow).withLimit(10_000));
  }

  @Test
  void an_event_enqueued_with_a_traceparent_starts_a_run_that_journals_it() throws Exception {
    String flow = uniqueName("traced-fulfil");
    String type = uniqueName("app") + ".order.traced";
    applyFlow(
        "name: "
            + flow
            + "\ntrigger: {event: \""
            + type
            + "\"}\n"
            + "steps: [{name: only, capability: noop}]\n");
    String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    try (Connection app = backend.database().connect()) {
      BatonEvents.enqueue(
          app, new BatonEvent("traced-1", "/app", type, null, "{}").withTraceparent(traceparent));
    }

    await().atMost(TIMEOUT).until(() -> runsOf(flow).size() == 1);
    String runId = runsOf(flow).get(0).runId().toString();
    JsonNode created = http.get("/api/v1/runs/" + runId + "/journal").json().get("entries").get(0);
    assertThat(created.get("event").get("traceparent").asText()).isEqualTo(traceparent);
  }
}

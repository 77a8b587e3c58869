package io.baton.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.store.EventFilter;
import io.baton.store.StoredEvent;
import io.baton.store.Stores;
import io.baton.store.postgres.PostgresStores;
import io.baton.store.postgres.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@link BatonEvents} on a real PostgreSQL database with Baton's schema: what a committed
 * transaction enqueues reaches Baton's event store exactly once, what a rolled-back one enqueues
 * never does, and the documented grant is all an application's user needs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BatonEventsTest {
  private TestDatabase database;
  private Stores baton;

  @BeforeAll
  void openDatabase() {
    database = TestDatabase.create("client");
    baton = PostgresStores.create(database.config().build(), Clock.systemUTC());
  }

  @AfterAll
  void closeDatabase() throws Exception {
    baton.close();
    database.close();
  }

  @BeforeEach
  void empty() {
    database.truncateAll();
  }

  private List<StoredEvent> drained() {
    return baton.events().drainOutbox(1000, Instant.now());
  }

  @Test
  void an_event_enqueued_in_a_committed_transaction_reaches_baton_as_written() throws Exception {
    Instant happened = Instant.parse("2026-11-26T01:02:03.456789Z");
    try (Connection app = database.connect()) {
      app.setAutoCommit(false);
      try (Statement business = app.createStatement()) {
        business.execute("CREATE TABLE orders (id int PRIMARY KEY)");
        business.execute("INSERT INTO orders VALUES (1)");
      }
      BatonEvents.enqueue(
          app, new BatonEvent("order-1", "/shop", "order.created", happened, "{\"orderId\": 1}"));
      app.commit();
    }

    List<StoredEvent> stored = drained();
    assertThat(stored).hasSize(1);
    assertThat(stored.get(0).event().id()).isEqualTo("order-1");
    assertThat(stored.get(0).event().source()).isEqualTo("/shop");
    assertThat(stored.get(0).event().type()).isEqualTo("order.created");
    assertThat(stored.get(0).event().time()).isEqualTo(happened);
    assertThat(stored.get(0).event().data().get("orderId").asInt()).isEqualTo(1);
  }

  @Test
  void an_event_enqueued_in_a_rolled_back_transaction_leaves_no_trace() throws Exception {
    try (Connection app = database.connect()) {
      app.setAutoCommit(false);
      BatonEvents.enqueue(app, BatonEvent.of("/shop", "order.created", "{}"));
      app.rollback();
    }
    assertThat(baton.events().outboxSize()).isZero();
    assertThat(drained()).isEmpty();
    assertThat(baton.events().count(EventFilter.ALL)).isZero();
  }

  @Test
  void the_same_event_enqueued_twice_is_stored_once() throws Exception {
    BatonEvent event = new BatonEvent("order-2", "/shop", "order.created", null, null);
    try (Connection app = database.connect()) {
      BatonEvents.create().enqueueAll(app, List.of(event, event));
    }
    assertThat(drained()).hasSize(1);
    assertThat(baton.events().find("/shop", "order-2").orElseThrow().event().data().isNull())
        .isTrue();
  }

  @Test
  void a_user_with_only_the_documented_grant_can_enqueue() throws Exception {
    String role = "baton_app_" + UUID.randomUUID().toString().substring(0, 8);
    try (Connection admin = database.connect();
        Statement statement = admin.createStatement()) {
      statement.execute("CREATE ROLE " + role + " LOGIN");
      statement.execute("GRANT INSERT ON event_outbox TO " + role);
      statement.execute("GRANT USAGE ON SEQUENCE event_outbox_seq_seq TO " + role);
    }
    try {
      try (Connection app = DriverManager.getConnection(database.jdbcUrl(), role, "")) {
        BatonEvents.create().enqueueAll(app, List.of(BatonEvent.of("/shop", "t", "[1]")));
      }
      assertThat(drained()).hasSize(1);
    } finally {
      dropRole(role);
    }
  }

  private void dropRole(String role) throws SQLException {
    try (Connection admin = database.connect();
        Statement statement = admin.createStatement()) {
      statement.execute("DROP OWNED BY " + role);
      statement.execute("DROP ROLE " + role);
    }
  }

  @Test
  void a_schema_that_is_not_an_identifier_is_refused() {
    assertThatThrownBy(() -> BatonEvents.inSchema("x; DROP"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("plain identifier");
  }
}

package io.baton.store.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.journal.UnknownRootException;
import io.baton.store.StoreException;
import io.baton.store.StoreUnavailableException;
import io.baton.store.postgres.testkit.PostgresFixture;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Which failures are retried and which surface at once, with errors from a real server. */
class TransientRetryTest {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  private final TransientRetry retry =
      new TransientRetry(Duration.ofSeconds(30), Duration.ofMillis(1), Duration.ofMillis(10));

  @Test
  void serialization_failures_and_deadlocks_are_retried_until_the_call_succeeds() {
    AtomicInteger attempts = new AtomicInteger();
    String result =
        retry.call(
            "test",
            () -> {
              int attempt = attempts.incrementAndGet();
              if (attempt == 1) {
                raise("serialization_failure");
              } else if (attempt == 2) {
                raise("deadlock_detected");
              } else if (attempt == 3) {
                raise("admin_shutdown");
              }
              return "done";
            });
    assertThat(result).isEqualTo("done");
    assertThat(attempts).hasValue(4);
  }

  @Test
  void a_constraint_violation_surfaces_at_once_as_a_store_exception() {
    AtomicInteger attempts = new AtomicInteger();
    assertThatThrownBy(
            () ->
                retry.call(
                    "insert twice",
                    () -> {
                      attempts.incrementAndGet();
                      raise("unique_violation");
                      return null;
                    }))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> {
              assertThat(e).isNotInstanceOf(StoreUnavailableException.class);
              assertThat(e.getMessage()).contains("insert twice").contains("unique_violation");
              assertThat(TransientFailures.sqlState(e)).isEqualTo("23505");
            });
    assertThat(attempts).hasValue(1);
  }

  @Test
  void a_syntax_error_surfaces_at_once() {
    AtomicInteger attempts = new AtomicInteger();
    assertThatThrownBy(
            () ->
                retry.call(
                    "run bad sql",
                    () -> {
                      attempts.incrementAndGet();
                      try (Connection connection = postgres.database().connect();
                          Statement statement = connection.createStatement()) {
                        statement.execute("SELEKT 1");
                      }
                      return null;
                    }))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("SELEKT");
    assertThat(attempts).hasValue(1);
  }

  @Test
  void batons_own_exceptions_pass_through_unchanged_and_unretried() {
    UnknownRootException unknown = new UnknownRootException(UUID.randomUUID());
    AtomicInteger attempts = new AtomicInteger();
    assertThatThrownBy(
            () ->
                retry.call(
                    "append",
                    () -> {
                      attempts.incrementAndGet();
                      throw unknown;
                    }))
        .isSameAs(unknown);
    assertThat(attempts).hasValue(1);
  }

  @Test
  void a_refused_connection_is_retried_until_the_window_closes_then_reported_unavailable()
      throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    TransientRetry shortWindow =
        new TransientRetry(Duration.ofMillis(300), Duration.ofMillis(10), Duration.ofMillis(50));
    AtomicInteger attempts = new AtomicInteger();
    assertThatThrownBy(
            () ->
                shortWindow.call(
                    "connect",
                    () -> {
                      attempts.incrementAndGet();
                      return DriverManager.getConnection(
                          "jdbc:postgresql://127.0.0.1:" + closedPort + "/x", "u", "p");
                    }))
        .isInstanceOfSatisfying(
            StoreUnavailableException.class,
            e -> {
              assertThat(e.getMessage()).contains("connect").contains("stayed unavailable");
              assertThat(TransientFailures.sqlState(e)).isEqualTo("08001");
              assertThat(e.getSuppressed()).isNotEmpty().hasSizeLessThan(attempts.get());
            });
    assertThat(attempts.get()).isGreaterThan(2);
  }

  @Test
  void an_interrupt_during_the_back_off_stops_the_retry_and_keeps_the_flag() {
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(
              () ->
                  retry.call(
                      "wait",
                      () -> {
                        raise("serialization_failure");
                        return null;
                      }))
          .isInstanceOf(StoreUnavailableException.class)
          .hasMessageContaining("interrupted");
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }

  /** Makes the real server raise an error with the named condition's SQLSTATE. */
  private static void raise(String condition) throws SQLException {
    try (Connection connection = postgres.database().connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "DO $$ BEGIN RAISE EXCEPTION '"
              + condition
              + "' USING ERRCODE = '"
              + condition
              + "'; END $$");
    }
  }
}

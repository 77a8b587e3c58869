package io.baton.store.postgres.testkit;

import io.baton.store.postgres.PostgresStoreConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.TimeZone;
import java.util.UUID;

/**
 * A uniquely named, empty database on a test server, dropped (with its connections) on {@link
 * #close()}.
 *
 * <p>Time zone: the PostgreSQL driver always sets the session's time zone to the JVM's default (a
 * startup parameter that overrides URL options and database defaults), and the build runs tests in
 * {@code Pacific/Chatham} (UTC+12:45/+13:45), so sessions are not in UTC and code that depends on
 * the session's zone fails its tests. {@link #sessionTimeZone()} tells which zone that is.
 */
public final class TestDatabase implements AutoCloseable {
  private static final int MAX_NAME_LENGTH = 63;

  private final PostgresServer server;
  private final String name;

  private TestDatabase(PostgresServer server, String name) {
    this.server = server;
    this.name = name;
  }

  /** Creates a database on the server found from the environment. */
  public static TestDatabase create(String label) {
    return create(PostgresServer.fromEnvironment(), label);
  }

  public static TestDatabase create(PostgresServer server, String label) {
    String name = uniqueName(label);
    try (Connection admin = server.connectAdmin();
        Statement statement = admin.createStatement()) {
      statement.execute("CREATE DATABASE \"" + name + "\"");
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot create test database "
              + name
              + " on "
              + server.adminUrl()
              + " (set "
              + PostgresServer.URL_VARIABLE
              + " to a server where user "
              + server.user()
              + " may create databases): "
              + e.getMessage(),
          e);
    }
    return new TestDatabase(server, name);
  }

  private static String uniqueName(String label) {
    String clean = label.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
    String suffix = "_" + UUID.randomUUID().toString().substring(0, 8);
    String prefix = "baton_" + clean;
    return prefix.substring(0, Math.min(prefix.length(), MAX_NAME_LENGTH - suffix.length()))
        + suffix;
  }

  public String name() {
    return name;
  }

  public PostgresServer server() {
    return server;
  }

  public String jdbcUrl() {
    return server.urlOf(name);
  }

  /** The time zone of sessions on this database: the JVM's default zone. */
  public static String sessionTimeZone() {
    return TimeZone.getDefault().getID();
  }

  /**
   * A store configuration for this database, sized for tests: a small pool, and a retry window that
   * outlasts a server restart but not a test's patience.
   */
  public PostgresStoreConfig.Builder config() {
    return PostgresStoreConfig.builder(jdbcUrl())
        .user(server.user())
        .password(server.password())
        .maxPoolSize(4)
        .connectionTimeout(Duration.ofSeconds(5))
        .transientRetryWindow(Duration.ofSeconds(60))
        .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(500));
  }

  /** A superuser connection to this database. */
  public Connection connect() throws SQLException {
    return server.connect(jdbcUrl());
  }

  /** Empties every Baton table, keeping the schema. */
  public void truncateAll() {
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "TRUNCATE journal, journal_archive, journal_checkpoints, runs, flows, blobs,"
              + " run_signals, events, event_outbox, api_keys, audit_log,"
              + " deleted_trees"
              + " RESTART IDENTITY");
    } catch (SQLException e) {
      throw new IllegalStateException("cannot empty test database " + name, e);
    }
  }

  /** Drops the database, disconnecting whoever is still connected. */
  @Override
  public void close() {
    try (Connection admin = server.connectAdmin();
        Statement statement = admin.createStatement()) {
      statement.execute("DROP DATABASE IF EXISTS \"" + name + "\" WITH (FORCE)");
    } catch (SQLException e) {
      throw new IllegalStateException("cannot drop test database " + name, e);
    }
  }
}

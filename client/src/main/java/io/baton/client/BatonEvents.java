package io.baton.client;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;

/**
 * Enqueues events for Baton in the caller's transaction: the rows go into Baton's {@code
 * event_outbox} table through the caller's {@link Connection}, and become visible to Baton exactly
 * when the caller commits. A rollback leaves no trace; a commit starts, once, a run of every flow
 * whose trigger matches, even if no Baton node is up at that moment (they drain the outbox when
 * they come back).
 *
 * <p>The connection must reach Baton's database. The database user needs {@code INSERT} on {@code
 * event_outbox} and {@code USAGE} on its identity sequence ({@code GRANT INSERT ON event_outbox TO
 * app; GRANT USAGE ON SEQUENCE event_outbox_seq_seq TO app;}), nothing else. Thread-safe: it holds
 * only the table's name.
 */
public final class BatonEvents {
  private static final String TABLE = "event_outbox";
  private final String insert;
  private final String tracedInsert;

  private BatonEvents(String table) {
    this.insert =
        "INSERT INTO "
            + table
            + " (source, id, type, event_time, data) VALUES (?, ?, ?, ?, CAST(? AS jsonb))";
    // Only traced events name the traceparent column (schema version 8), so an application that
    // sends none keeps working against an older Baton schema.
    this.tracedInsert =
        "INSERT INTO "
            + table
            + " (source, id, type, event_time, data, traceparent)"
            + " VALUES (?, ?, ?, ?, CAST(? AS jsonb), ?)";
  }

  /** Enqueues into {@code event_outbox} on the connection's search path. */
  public static BatonEvents create() {
    return new BatonEvents(TABLE);
  }

  /**
   * Enqueues into {@code schema.event_outbox}, for a Baton schema that is not on the application's
   * search path.
   *
   * @throws IllegalArgumentException the schema is not a plain identifier
   */
  public static BatonEvents inSchema(String schema) {
    Objects.requireNonNull(schema, "schema");
    if (!schema.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw new IllegalArgumentException(
          "schema must be a plain identifier (letters, digits, _), not '" + schema + "'");
    }
    return new BatonEvents(schema + "." + TABLE);
  }

  /** Enqueues one event with {@link #create()}; see {@link #enqueueAll}. */
  public static void enqueue(Connection connection, BatonEvent event) throws SQLException {
    create().enqueueAll(connection, List.of(event));
  }

  /**
   * Inserts the events into the outbox through {@code connection}, in its current transaction (with
   * auto-commit on, each statement commits by itself). Does not commit, roll back or close.
   *
   * @throws SQLException what the driver threw; the caller's transaction decides what happens next
   */
  public void enqueueAll(Connection connection, List<BatonEvent> events) throws SQLException {
    boolean traced = events.stream().anyMatch(e -> e.traceparent() != null);
    try (PreparedStatement statement =
        connection.prepareStatement(traced ? tracedInsert : insert)) {
      for (BatonEvent event : events) {
        statement.setString(1, event.source());
        statement.setString(2, event.id());
        statement.setString(3, event.type());
        if (event.time() == null) {
          statement.setNull(4, Types.TIMESTAMP_WITH_TIMEZONE);
        } else {
          statement.setObject(4, event.time().atOffset(ZoneOffset.UTC));
        }
        statement.setString(5, event.dataJson() == null ? "null" : event.dataJson());
        if (traced) {
          statement.setString(6, event.traceparent());
        }
        statement.addBatch();
      }
      statement.executeBatch();
    }
  }
}

package io.baton.store.postgres.internal;

import io.baton.journal.JournalEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * Writes a planned batch: the journal entries, the runs it created and the runs it changed, in one
 * statement whatever the batch's size. The update of existing rows carries the fence and end each
 * root had when it was locked; if any row no longer matches, the batch throws and the transaction
 * rolls back.
 */
final class BatchWriter {
  private static final String INSERT_JOURNAL =
      "INSERT INTO journal (root_run_id, seq, run_id, ts, event)"
          + " SELECT * FROM unnest(?::uuid[], ?::bigint[], ?::uuid[], ?::timestamptz[], ?::jsonb[])";

  private static final String INSERT_RUNS =
      "INSERT INTO runs (id, root_run_id, parent_run_id, parent_step, flow_name, flow_hash,"
          + " status, status_reason, input, output, error_code, error_message, recoverable,"
          + " orchestrator_id, owner_token, latest_seq, wake_at, idempotency_key, created_at,"
          + " updated_at, trigger_source, trigger_id)"
          + " SELECT id, root_run_id, parent_run_id, parent_step, flow_name, flow_hash,"
          + " status, status_reason, input, output, error_code, error_message, recoverable,"
          + " orchestrator_id, owner_token, latest_seq, wake_at, idempotency_key, created_at,"
          + " updated_at, trigger_source, trigger_id"
          + " FROM unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::text[], ?::text[], ?::text[],"
          + " ?::text[], ?::text[], ?::jsonb[], ?::jsonb[], ?::text[], ?::text[], ?::boolean[],"
          + " ?::text[], ?::bigint[], ?::bigint[], ?::timestamptz[], ?::text[], ?::timestamptz[],"
          + " ?::timestamptz[], ?::text[], ?::text[]) WITH ORDINALITY AS r(id, root_run_id,"
          + " parent_run_id, parent_step, flow_name, flow_hash, status, status_reason, input,"
          + " output, error_code, error_message, recoverable, orchestrator_id, owner_token,"
          + " latest_seq, wake_at, idempotency_key, created_at, updated_at, trigger_source,"
          + " trigger_id, position)"
          + " ORDER BY position";

  private static final String UPDATE_RUNS =
      "UPDATE runs AS r SET status = u.status, status_reason = u.status_reason,"
          + " error_code = u.error_code, error_message = u.error_message,"
          + " recoverable = u.recoverable, orchestrator_id = u.orchestrator_id,"
          + " owner_token = u.owner_token, latest_seq = u.latest_seq, wake_at = u.wake_at,"
          + " updated_at = u.updated_at, waiting_for = u.waiting_for, waiting = u.waiting,"
          + " output = CASE WHEN u.output_changed THEN u.output ELSE r.output END"
          + " FROM unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[], ?::boolean[],"
          + " ?::text[], ?::bigint[], ?::bigint[], ?::timestamptz[], ?::timestamptz[],"
          + " ?::boolean[], ?::jsonb[], ?::bigint[], ?::bigint[], ?::text[], ?::jsonb[])"
          + " AS u(id, status, status_reason, error_code, error_message, recoverable,"
          + " orchestrator_id, owner_token, latest_seq, wake_at, updated_at, output_changed,"
          + " output, locked_token, locked_seq, waiting_for, waiting)"
          + " WHERE r.id = u.id AND r.owner_token = u.locked_token AND r.latest_seq = u.locked_seq";

  /** A finished tree takes no more signals: those still waiting go with the finishing append. */
  private static final String CLEAR_SIGNALS =
      "DELETE FROM run_signals WHERE root_run_id = ANY(?::uuid[])";

  /** All four in one statement: one round trip (data-modifying CTEs all run). */
  private static final String WRITE_ALL =
      "WITH written AS ("
          + INSERT_JOURNAL
          + "), created AS ("
          + INSERT_RUNS
          + "), changed AS ("
          + UPDATE_RUNS
          + " RETURNING 1), cleared AS ("
          + CLEAR_SIGNALS
          + ") SELECT count(*) FROM changed";

  /**
   * A root's creation alone: the run row unless its id exists, and the entries only if the row was
   * inserted, in one statement (see {@link FastCreate}).
   */
  private static final String CREATE_ROOT =
      "WITH created AS ("
          + INSERT_RUNS
          + " ON CONFLICT (id) DO NOTHING RETURNING id) "
          + INSERT_JOURNAL
          + " WHERE EXISTS (SELECT FROM created) RETURNING 1";

  /**
   * Roots' creations: the run rows whose id and idempotency key are free (the conflict clause has
   * no target, so it covers both unique keys, also between rows of the batch) and the entries of
   * those rows only, in one statement; returns the ids it inserted.
   */
  private static final String CREATE_ROOTS =
      "WITH created AS ("
          + INSERT_RUNS
          + " ON CONFLICT DO NOTHING RETURNING id), written AS ("
          + "INSERT INTO journal (root_run_id, seq, run_id, ts, event)"
          + " SELECT * FROM unnest(?::uuid[], ?::bigint[], ?::uuid[], ?::timestamptz[], ?::jsonb[])"
          + " AS j(root_run_id, seq, run_id, ts, event)"
          + " WHERE j.root_run_id IN (SELECT id FROM created)) SELECT id FROM created";

  private final Connection connection;

  BatchWriter(Connection connection) {
    this.connection = connection;
  }

  /**
   * @param created rows to insert, in order of creation
   * @param changed existing rows to update
   */
  void write(List<JournalEntry> entries, List<RunRow> created, List<RunRow> changed)
      throws SQLException {
    if (entries.isEmpty() && created.isEmpty() && changed.isEmpty()) {
      return;
    }
    try (PreparedStatement statement = connection.prepareStatement(WRITE_ALL)) {
      EntryArrays.bind(connection, statement, 1, entries);
      Columns next = bindCreated(new Columns(connection, statement, created, 6));
      next = bindChanged(new Columns(connection, statement, changed, next.next));
      statement.setArray(next.next, Sql.uuids(connection, finishedRoots(changed)));
      try (ResultSet rs = statement.executeQuery()) {
        rs.next();
        int updated = rs.getInt(1);
        if (updated != changed.size()) {
          throw new IllegalStateException(
              "the fence check in SQL disagreed with the locked rows: updated "
                  + updated
                  + " of "
                  + changed.size()
                  + " runs; the batch is rolled back");
        }
      }
    }
  }

  /**
   * Inserts one created root and its entries unless a run with its id exists; whether it did. A
   * taken idempotency key throws (the unique constraint), like any refused write.
   */
  boolean createRoot(List<JournalEntry> entries, RunRow created) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(CREATE_ROOT)) {
      Columns next = bindCreated(new Columns(connection, statement, List.of(created), 1));
      EntryArrays.bind(connection, statement, next.next, entries);
      try (ResultSet rs = statement.executeQuery()) {
        return rs.next();
      }
    }
  }

  /** Inserts the created roots whose keys are free and their entries; the ids it inserted. */
  Set<UUID> createRoots(List<JournalEntry> entries, List<RunRow> created) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(CREATE_ROOTS)) {
      Columns next = bindCreated(new Columns(connection, statement, created, 1));
      EntryArrays.bind(connection, statement, next.next, entries);
      Set<UUID> inserted = new HashSet<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          inserted.add(Sql.uuid(rs, "id"));
        }
      }
      return inserted;
    }
  }

  private static List<UUID> finishedRoots(List<RunRow> changed) {
    return changed.stream()
        .filter(row -> row.isRoot() && row.record().status().isTerminal())
        .map(row -> row.record().runId())
        .toList();
  }

  private static Columns bindCreated(Columns columns) throws SQLException {
    columns.uuids(r -> r.record().runId());
    columns.uuids(r -> r.record().rootRunId());
    columns.uuids(r -> r.record().parentRunId());
    columns.texts(r -> r.record().parentStep());
    columns.texts(r -> r.record().flowName());
    columns.texts(r -> r.record().flowHash());
    columns.texts(r -> r.record().status().name());
    columns.texts(r -> r.record().statusReason());
    columns.jsons(r -> Sql.json(r.record().input()));
    columns.jsons(r -> Sql.json(r.record().output()));
    columns.texts(r -> r.record().error() == null ? null : r.record().error().code());
    columns.texts(r -> r.record().error() == null ? null : r.record().error().message());
    columns.booleans(r -> r.record().recoverable());
    columns.texts(r -> r.record().orchestratorId());
    columns.longs(r -> r.record().ownerToken());
    columns.longs(RunRow::latestSeq);
    columns.timestamps(r -> Sql.iso(r.record().wakeAt()));
    columns.texts(r -> r.record().idempotencyKey());
    columns.timestamps(r -> Sql.iso(r.record().createdAt()));
    columns.timestamps(r -> Sql.iso(r.record().updatedAt()));
    columns.texts(
        r -> r.record().triggerEvent() == null ? null : r.record().triggerEvent().source());
    columns.texts(r -> r.record().triggerEvent() == null ? null : r.record().triggerEvent().id());
    return columns;
  }

  private static Columns bindChanged(Columns columns) throws SQLException {
    columns.uuids(r -> r.record().runId());
    columns.texts(r -> r.record().status().name());
    columns.texts(r -> r.record().statusReason());
    columns.texts(r -> r.record().error() == null ? null : r.record().error().code());
    columns.texts(r -> r.record().error() == null ? null : r.record().error().message());
    columns.booleans(r -> r.record().recoverable());
    columns.texts(r -> r.record().orchestratorId());
    columns.longs(r -> r.record().ownerToken());
    columns.longs(RunRow::latestSeq);
    columns.timestamps(r -> Sql.iso(r.record().wakeAt()));
    columns.timestamps(r -> Sql.iso(r.record().updatedAt()));
    columns.booleans(RunRow::outputChanged);
    columns.jsons(r -> r.outputChanged() ? Sql.json(r.record().output()) : null);
    columns.longs(RunRow::lockedToken);
    columns.longs(RunRow::lockedSeq);
    columns.texts(r -> r.record().waiting() == null ? null : r.record().waiting().kind().name());
    columns.jsons(r -> RunRows.waitingJson(r.record().waiting()));
    return columns;
  }

  /** Binds one array parameter per call, in order, from the rows. */
  private static final class Columns {
    private final Connection connection;
    private final PreparedStatement statement;
    private final List<RunRow> rows;
    private int next;

    Columns(Connection connection, PreparedStatement statement, List<RunRow> rows, int first) {
      this.connection = connection;
      this.statement = statement;
      this.rows = rows;
      this.next = first;
    }

    void uuids(Function<RunRow, UUID> column) throws SQLException {
      bind("uuid", rows.stream().map(column).toArray(UUID[]::new));
    }

    void texts(Function<RunRow, String> column) throws SQLException {
      bind("text", rows.stream().map(column).toArray(String[]::new));
    }

    void jsons(Function<RunRow, String> column) throws SQLException {
      bind("jsonb", rows.stream().map(column).toArray(String[]::new));
    }

    void timestamps(Function<RunRow, String> column) throws SQLException {
      bind("timestamptz", rows.stream().map(column).toArray(String[]::new));
    }

    void longs(Function<RunRow, Long> column) throws SQLException {
      bind("int8", rows.stream().map(column).toArray(Long[]::new));
    }

    void booleans(Function<RunRow, Boolean> column) throws SQLException {
      bind("bool", rows.stream().map(column).toArray(Boolean[]::new));
    }

    private void bind(String type, Object[] values) throws SQLException {
      statement.setArray(next++, connection.createArrayOf(type, values));
    }
  }
}

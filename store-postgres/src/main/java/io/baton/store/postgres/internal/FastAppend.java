package io.baton.store.postgres.internal;

import io.baton.journal.AppendRequest;
import io.baton.journal.JournalEntry;
import io.baton.store.RunProjection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The common append in one statement and one round trip: entries of a root's own run that change no
 * run row (step completions, failures, waits) under the current owner's token. The statement
 * advances each root's {@code latest_seq} only where {@code owner_token} and {@code latest_seq} are
 * what the request expects (the fence and the sequence check, evaluated on the current row version
 * under its row lock), and inserts the entries of exactly the roots it advanced, all in one
 * implicit transaction. A request it does not advance wrote nothing and goes the general way
 * ({@link AppendBatch}), which tells a repeat, a fence or a conflict apart.
 */
final class FastAppend {
  private static final String ADVANCE_AND_INSERT =
      "WITH advanced AS ("
          + " UPDATE runs AS r SET latest_seq = x.last_seq"
          + " FROM unnest(?::uuid[], ?::bigint[], ?::bigint[], ?::bigint[])"
          + " AS x(id, token, expected_seq, last_seq)"
          + " WHERE r.id = x.id AND r.parent_run_id IS NULL"
          + " AND r.owner_token = x.token AND r.latest_seq = x.expected_seq"
          + " RETURNING r.id)"
          + " INSERT INTO journal (root_run_id, seq, run_id, ts, event)"
          + " SELECT e.root_run_id, e.seq, e.run_id, e.ts, e.event"
          + " FROM unnest(?::uuid[], ?::bigint[], ?::uuid[], ?::timestamptz[], ?::jsonb[])"
          + " AS e(root_run_id, seq, run_id, ts, event)"
          + " WHERE e.root_run_id IN (SELECT id FROM advanced)"
          + " RETURNING root_run_id";

  /**
   * The same for one request: a primary-key update instead of a join, which plans in half the time
   * (every statement is planned at each execution; see {@link Database}).
   */
  private static final String ADVANCE_AND_INSERT_ONE =
      "WITH advanced AS ("
          + " UPDATE runs SET latest_seq = ?"
          + " WHERE id = ? AND parent_run_id IS NULL AND owner_token = ? AND latest_seq = ?"
          + " RETURNING id)"
          + " INSERT INTO journal (root_run_id, seq, run_id, ts, event)"
          + " SELECT e.root_run_id, e.seq, e.run_id, e.ts, e.event"
          + " FROM unnest(?::uuid[], ?::bigint[], ?::uuid[], ?::timestamptz[], ?::jsonb[])"
          + " AS e(root_run_id, seq, run_id, ts, event)"
          + " WHERE EXISTS (SELECT FROM advanced)"
          + " RETURNING root_run_id";

  private FastAppend() {}

  /**
   * Whether the request may go the fast way: it neither creates nor claims, and every entry is of
   * the root's own run and leaves the run row as it is.
   */
  static boolean eligible(AppendRequest request) {
    if (request.createsRoot() || request.claims()) {
      return false;
    }
    for (JournalEntry entry : request.entries()) {
      if (!entry.isRootEntry() || RunProjection.changesRow(entry)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Appends the requests (eligible ones, one per root) in auto-commit mode; returns the roots whose
   * request was appended.
   */
  static Set<UUID> run(Connection connection, List<AppendRequest> requests) throws SQLException {
    if (requests.size() == 1) {
      return runOne(connection, requests.get(0));
    }
    int size = requests.size();
    UUID[] roots = new UUID[size];
    Long[] tokens = new Long[size];
    Long[] expected = new Long[size];
    Long[] last = new Long[size];
    List<JournalEntry> entries = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      AppendRequest request = requests.get(i);
      roots[i] = request.rootRunId();
      tokens[i] = request.token();
      expected[i] = request.firstSeq() - 1;
      last[i] = request.lastSeq();
      entries.addAll(request.entries());
    }
    try (PreparedStatement statement = connection.prepareStatement(ADVANCE_AND_INSERT)) {
      statement.setArray(1, connection.createArrayOf("uuid", roots));
      statement.setArray(2, connection.createArrayOf("int8", tokens));
      statement.setArray(3, connection.createArrayOf("int8", expected));
      statement.setArray(4, connection.createArrayOf("int8", last));
      EntryArrays.bind(connection, statement, 5, entries);
      return appendedRoots(statement);
    }
  }

  private static Set<UUID> runOne(Connection connection, AppendRequest request)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(ADVANCE_AND_INSERT_ONE)) {
      statement.setLong(1, request.lastSeq());
      statement.setObject(2, request.rootRunId());
      statement.setLong(3, request.token());
      statement.setLong(4, request.firstSeq() - 1);
      EntryArrays.bind(connection, statement, 5, request.entries());
      return appendedRoots(statement);
    }
  }

  private static Set<UUID> appendedRoots(PreparedStatement statement) throws SQLException {
    Set<UUID> appended = new HashSet<>();
    try (ResultSet rs = statement.executeQuery()) {
      while (rs.next()) {
        appended.add(rs.getObject(1, UUID.class));
      }
    }
    return appended;
  }
}

package io.baton.store.postgres.internal;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunCreated;
import io.baton.store.RunRecord;
import io.baton.store.postgres.internal.AppendPlanner.Position;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * One batch of appends in one transaction: lock the rows of every run the batch mentions (in id
 * order, so concurrent batches cannot deadlock), decide every request in memory ({@link
 * AppendPlanner}), then write the accepted entries and the changed rows with one statement each.
 * The write re-checks each root's fence and end in SQL, so a disagreement can only roll back, never
 * commit. The caller commits.
 */
final class AppendBatch {
  private static final String LOCK_ROWS =
      "SELECT " + RunRows.SCALAR_COLUMNS + " FROM runs WHERE id = ANY(?) ORDER BY id FOR UPDATE";

  private static final String TAKEN_KEYS =
      "SELECT idempotency_key FROM runs WHERE idempotency_key = ANY(?)";

  private static final String STORED_IDENTICALLY =
      "SELECT c.root_run_id, c.seq"
          + " FROM unnest(?::uuid[], ?::bigint[], ?::uuid[], ?::timestamptz[], ?::jsonb[])"
          + " AS c(root_run_id, seq, run_id, ts, event)"
          + " JOIN journal j ON j.root_run_id = c.root_run_id AND j.seq = c.seq"
          + " WHERE j.run_id = c.run_id AND j.ts = c.ts AND j.event = c.event";

  private static final String OLDEST_SIGNALS =
      "SELECT root_run_id, min(created_at) AS created_at FROM run_signals"
          + " WHERE root_run_id = ANY(?) GROUP BY root_run_id";

  private final Connection connection;
  private final List<AppendRequest> requests;

  AppendBatch(Connection connection, List<AppendRequest> requests) {
    this.connection = connection;
    this.requests = requests;
  }

  /** Decides and writes the batch; returns one result per request, in order. */
  List<AppendResult> run() throws SQLException {
    Map<UUID, RunRow> locked = lockRows();
    AppendPlanner planner = new AppendPlanner(locked, takenKeys(), storedIdentically(locked));
    List<AppendResult> results = new ArrayList<>(requests.size());
    for (AppendRequest request : requests) {
      results.add(planner.plan(request));
    }
    wakeParkedRootsForSignals(planner);
    new BatchWriter(connection)
        .write(planner.journalWrites(), planner.createdRows(), planner.changedRows());
    return results;
  }

  private Map<UUID, RunRow> lockRows() throws SQLException {
    Set<UUID> ids = new TreeSet<>();
    for (AppendRequest request : requests) {
      ids.add(request.rootRunId());
      for (JournalEntry entry : request.entries()) {
        ids.add(entry.runId());
      }
    }
    Map<UUID, RunRow> rows = new HashMap<>();
    try (PreparedStatement lock = connection.prepareStatement(LOCK_ROWS)) {
      lock.setArray(1, Sql.uuids(connection, ids));
      try (ResultSet rs = lock.executeQuery()) {
        while (rs.next()) {
          RunRecord record = RunRows.map(rs, RunRow.UNREAD, RunRow.UNREAD);
          rows.put(record.runId(), RunRow.locked(record, rs.getLong("latest_seq")));
        }
      }
    }
    return rows;
  }

  private Set<String> takenKeys() throws SQLException {
    Set<String> keys = new LinkedHashSet<>();
    for (AppendRequest request : requests) {
      for (JournalEntry entry : request.entries()) {
        if (entry.isRootEntry()
            && entry.event() instanceof RunCreated created
            && created.idempotencyKey() != null) {
          keys.add(created.idempotencyKey());
        }
      }
    }
    if (keys.isEmpty()) {
      return Set.of();
    }
    Set<String> taken = new HashSet<>();
    try (PreparedStatement query = connection.prepareStatement(TAKEN_KEYS)) {
      query.setArray(1, Sql.texts(connection, keys));
      try (ResultSet rs = query.executeQuery()) {
        while (rs.next()) {
          taken.add(rs.getString(1));
        }
      }
    }
    return taken;
  }

  /**
   * Compares, in SQL, every entry of the batch at a position the journal already holds with what is
   * stored there. jsonb equality ignores how the JSON was spelled, so a retried append is
   * recognised even though the stored document was normalised. Rare: only retries and conflicts
   * ask.
   */
  private Set<Position> storedIdentically(Map<UUID, RunRow> locked) throws SQLException {
    List<JournalEntry> candidates = new ArrayList<>();
    for (AppendRequest request : requests) {
      RunRow root = locked.get(request.rootRunId());
      if (root == null || request.firstSeq() > root.lockedSeq()) {
        continue;
      }
      for (JournalEntry entry : request.entries()) {
        if (entry.seq() <= root.lockedSeq()) {
          candidates.add(entry);
        }
      }
    }
    if (candidates.isEmpty()) {
      return Set.of();
    }
    Set<Position> same = new HashSet<>();
    try (PreparedStatement query = connection.prepareStatement(STORED_IDENTICALLY)) {
      EntryArrays.bind(connection, query, 1, candidates);
      try (ResultSet rs = query.executeQuery()) {
        while (rs.next()) {
          same.add(new Position(Sql.uuid(rs, "root_run_id"), rs.getLong("seq")));
        }
      }
    }
    return same;
  }

  /**
   * A root that parks considers its inbox: a signal that arrived while it ran makes it due at once.
   * Signals cannot slip in between: {@code addSignal} locks the same root row.
   */
  private void wakeParkedRootsForSignals(AppendPlanner planner) throws SQLException {
    Map<UUID, RunRow> parked = new HashMap<>();
    for (RunRow row : planner.rows()) {
      if (row.isParked()) {
        parked.put(row.id(), row);
      }
    }
    if (parked.isEmpty()) {
      return;
    }
    try (PreparedStatement query = connection.prepareStatement(OLDEST_SIGNALS)) {
      query.setArray(1, Sql.uuids(connection, parked.keySet()));
      try (ResultSet rs = query.executeQuery()) {
        while (rs.next()) {
          Instant oldest = Sql.instant(rs, "created_at");
          parked.get(Sql.uuid(rs, "root_run_id")).wakeNoLaterThan(oldest);
        }
      }
    }
  }
}

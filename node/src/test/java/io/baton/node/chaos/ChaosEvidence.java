package io.baton.node.chaos;

import io.baton.journal.JournalCodec;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Everything a finished chaos run left behind, as plain data for {@link ChaosChecker}: the accepted
 * submissions, every run's status and every journal entry (read straight from the database), every
 * request the ledger saw, the fenced-out writes each node process counted and logged, and what the
 * harness itself found wrong (submissions no node took, a node that did not come back, a SIGTERM
 * that did not exit 0).
 */
record ChaosEvidence(
    List<Workload.Submission> submissions,
    Map<UUID, RunStatus> statuses,
    List<JournalEntry> journal,
    List<Ledger.SideEffect> sideEffects,
    List<FenceCount> fences,
    List<String> harnessFindings) {

  /**
   * The fenced-out writes of one node process: as its metrics counted them (its last scrape; -1
   * when no scrape succeeded) and as its log reported them.
   */
  record FenceCount(String incarnation, long counted, long logged) {}

  /** The same evidence with other journal entries and side effects (to plant faults in tests). */
  ChaosEvidence with(List<JournalEntry> journal, List<Ledger.SideEffect> sideEffects) {
    return new ChaosEvidence(submissions, statuses, journal, sideEffects, fences, harnessFindings);
  }

  /** Reads every run's status and the whole journal, in order. */
  static Map<UUID, RunStatus> readStatuses(Connection connection) throws SQLException {
    Map<UUID, RunStatus> statuses = new HashMap<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT id, status FROM runs")) {
      while (rows.next()) {
        statuses.put(rows.getObject(1, UUID.class), RunStatus.valueOf(rows.getString(2)));
      }
    }
    return statuses;
  }

  static List<JournalEntry> readJournal(Connection connection) throws SQLException {
    List<JournalEntry> entries = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT run_id, root_run_id, seq, ts, event::text FROM journal"
                    + " ORDER BY root_run_id, seq")) {
      while (rows.next()) {
        UUID root = rows.getObject(2, UUID.class);
        long seq = rows.getLong(3);
        entries.add(
            new JournalEntry(
                rows.getObject(1, UUID.class),
                root,
                seq,
                rows.getTimestamp(4).toInstant(),
                JournalCodec.decode(rows.getString(5), root, seq)));
      }
    }
    return entries;
  }
}

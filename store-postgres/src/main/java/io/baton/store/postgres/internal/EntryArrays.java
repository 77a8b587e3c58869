package io.baton.store.postgres.internal;

import io.baton.journal.JournalCodec;
import io.baton.journal.JournalEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;

/**
 * Journal entries as five parallel arrays (root, seq, run, timestamp, event) for {@code unnest}:
 * one statement writes or compares any number of entries.
 */
final class EntryArrays {
  private EntryArrays() {}

  /** Binds the arrays to parameters {@code first} to {@code first + 4}. */
  static void bind(
      Connection connection, PreparedStatement statement, int first, List<JournalEntry> entries)
      throws SQLException {
    int size = entries.size();
    UUID[] roots = new UUID[size];
    Long[] seqs = new Long[size];
    UUID[] runs = new UUID[size];
    String[] timestamps = new String[size];
    String[] events = new String[size];
    for (int i = 0; i < size; i++) {
      JournalEntry entry = entries.get(i);
      roots[i] = entry.rootRunId();
      seqs[i] = entry.seq();
      runs[i] = entry.runId();
      timestamps[i] = Sql.iso(entry.timestamp());
      events[i] = JournalCodec.encode(entry.event());
    }
    statement.setArray(first, connection.createArrayOf("uuid", roots));
    statement.setArray(first + 1, connection.createArrayOf("int8", seqs));
    statement.setArray(first + 2, connection.createArrayOf("uuid", runs));
    statement.setArray(first + 3, connection.createArrayOf("timestamptz", timestamps));
    statement.setArray(first + 4, connection.createArrayOf("jsonb", events));
  }
}

package io.baton.store.postgres.internal;

import io.baton.journal.JournalCodec;
import io.baton.journal.JournalEntry;
import java.util.UUID;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * Journal rows (hot or archived) as entries: columns {@code run_id, seq, ts, event} (the event as
 * text), and {@code root_run_id} unless the query reads one root only. Stateless.
 */
public final class JournalRows {
  private JournalRows() {}

  /** Rows of one root's journal, which the query does not select. */
  public static RowMapper<JournalEntry> of(UUID rootRunId) {
    return (rs, ctx) -> {
      long seq = rs.getLong("seq");
      return new JournalEntry(
          Sql.uuid(rs, "run_id"),
          rootRunId,
          seq,
          Sql.instant(rs, "ts"),
          JournalCodec.decode(rs.getString("event"), rootRunId, seq));
    };
  }

  /** Rows of several roots, each with its {@code root_run_id}. */
  public static final RowMapper<JournalEntry> WITH_ROOT =
      (rs, ctx) -> {
        UUID root = Sql.uuid(rs, "root_run_id");
        long seq = rs.getLong("seq");
        return new JournalEntry(
            Sql.uuid(rs, "run_id"),
            root,
            seq,
            Sql.instant(rs, "ts"),
            JournalCodec.decode(rs.getString("event"), root, seq));
      };
}

package io.baton.store.postgres.internal;

import io.baton.journal.JournalEntry;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal's archive on PostgreSQL: moving entries covered by a checkpoint from {@code journal}
 * to {@code journal_archive}, and reading both as one sequence. A move is one statement (a delete
 * whose returned rows are inserted), so an entry is in exactly one of the two tables at every
 * instant, and a reader's single statement sees it once. The roots of one batch are locked with
 * {@code FOR UPDATE SKIP LOCKED} on their checkpoint rows, so archivers on several nodes take
 * disjoint roots and never wait for each other; appends lock the {@code runs} row and insert above
 * the checkpoint, so they never wait for an archiver either. Each step completion moved leaves a
 * stub in the hot journal, so that a step still completes once (see {@code leaveCompletionStubs}).
 * Thread-safe.
 */
public final class JournalArchive {
  /** Roots one batch looks at; the batch's entry limit is what bounds its work. */
  private static final int ROOTS_PER_BATCH = 16;

  /** What a completion's stub holds: what the unique index reads, and a mark that it is a stub. */
  private static final String STUB_EVENT =
      "jsonb_build_object('type', 'StepCompleted', 'step', step, 'stub', true)";

  private static final Logger log = LoggerFactory.getLogger(JournalArchive.class);

  private final Database database;

  public JournalArchive(Database database) {
    this.database = database;
  }

  /** One root's checkpoint and how far its journal is archived. */
  private record Watermark(UUID root, long checkpointSeq, long archivedSeq) {}

  /** Moves up to {@code limit} covered entries of roots no other archiver holds. */
  public int archiveCovered(int limit) {
    if (limit <= 0) {
      return 0;
    }
    return database.inTransaction(
        "archive journal entries covered by checkpoints",
        handle -> {
          List<Watermark> roots =
              handle
                  .createQuery(
                      "SELECT root_run_id, seq, archived_seq FROM journal_checkpoints"
                          + " WHERE archived_seq < seq ORDER BY root_run_id LIMIT :roots"
                          + " FOR UPDATE SKIP LOCKED")
                  .bind("roots", ROOTS_PER_BATCH)
                  .map(
                      (rs, ctx) ->
                          new Watermark(Sql.uuid(rs, "root_run_id"), rs.getLong(2), rs.getLong(3)))
                  .list();
          int moved = 0;
          for (Watermark root : roots) {
            if (moved >= limit) {
              break;
            }
            long through = Math.min(root.checkpointSeq(), root.archivedSeq() + (limit - moved));
            moved += move(handle, root, through);
          }
          return moved;
        });
  }

  /** Moves every entry the root's checkpoint covers, waiting for an archiver that holds it. */
  public int compact(UUID rootRunId) {
    return database.inTransaction(
        "archive the journal of run " + rootRunId,
        handle ->
            handle
                .createQuery(
                    "SELECT root_run_id, seq, archived_seq FROM journal_checkpoints"
                        + " WHERE root_run_id = :root FOR UPDATE")
                .bind("root", rootRunId)
                .map((rs, ctx) -> new Watermark(rootRunId, rs.getLong(2), rs.getLong(3)))
                .findOne()
                .map(root -> move(handle, root, root.checkpointSeq()))
                .orElse(0));
  }

  private static int move(Handle handle, Watermark root, long through) {
    if (through <= root.archivedSeq()) {
      return 0;
    }
    int moved =
        handle
            .createUpdate(
                "WITH moved AS (DELETE FROM journal WHERE root_run_id = :root"
                    + " AND seq > :archived AND seq <= :through"
                    + " RETURNING root_run_id, seq, run_id, ts, event)"
                    + " INSERT INTO journal_archive (root_run_id, seq, run_id, ts, event)"
                    + " SELECT root_run_id, seq, run_id, ts, event FROM moved"
                    + " ON CONFLICT DO NOTHING")
            .bind("root", root.root())
            .bind("archived", root.archivedSeq())
            .bind("through", through)
            .execute();
    leaveCompletionStubs(handle, root, through);
    handle
        .createUpdate(
            "UPDATE journal_checkpoints SET archived_seq = :through WHERE root_run_id = :root")
        .bind("root", root.root())
        .bind("through", through)
        .execute();
    return moved;
  }

  /**
   * Leaves in the hot journal, for every step completion just moved, a stub at the negative of its
   * sequence that V1's unique index {@code journal_step_completed_once} counts like the completion
   * itself: a second completion of the step is refused by the append that carries it, as it was
   * while the first was hot, at no cost to any append. Readers of the hot journal take {@code seq >
   * 0} only. A completion whose stub is already there (two completions of one step in the archive,
   * possible only for history archived before V12) is reported, not hidden.
   */
  private static void leaveCompletionStubs(Handle handle, Watermark root, long through) {
    List<String> duplicated =
        handle
            .createQuery(
                "WITH completions AS (SELECT run_id, seq, ts, event ->> 'step' AS step"
                    + " FROM journal_archive WHERE root_run_id = :root"
                    + " AND seq > :archived AND seq <= :through"
                    + " AND event ->> 'type' = 'StepCompleted'),"
                    + " stubs AS (INSERT INTO journal (root_run_id, seq, run_id, ts, event)"
                    + " SELECT :root, -seq, run_id, ts, "
                    + STUB_EVENT
                    + " FROM completions"
                    + " ON CONFLICT DO NOTHING RETURNING -seq AS seq)"
                    + " SELECT c.run_id || ' ' || c.step || ' at seq ' || c.seq FROM completions c"
                    + " WHERE c.seq NOT IN (SELECT seq FROM stubs) ORDER BY c.seq")
            .bind("root", root.root())
            .bind("archived", root.archivedSeq())
            .bind("through", through)
            .mapTo(String.class)
            .list();
    if (!duplicated.isEmpty()) {
      log.error(
          "run {} holds a second completion of a step (a step completes once); archived without"
              + " a stub, as their step's key was taken: {}",
          root.root(),
          duplicated);
    }
  }

  /** The root's archived and hot entries from {@code fromSeq}, in one statement (one snapshot). */
  public List<JournalEntry> readHistory(UUID rootRunId, long fromSeq, int limit) {
    if (limit <= 0) {
      return List.of();
    }
    return database.withHandle(
        "read the history of run " + rootRunId,
        handle ->
            handle
                .createQuery(
                    "(SELECT run_id, seq, ts, event::text AS event FROM journal_archive"
                        + " WHERE root_run_id = :root AND seq >= :from ORDER BY seq LIMIT :limit)"
                        + " UNION ALL"
                        + " (SELECT run_id, seq, ts, event::text AS event FROM journal"
                        + " WHERE root_run_id = :root AND seq >= :from AND seq > 0"
                        + " ORDER BY seq LIMIT :limit)"
                        + " ORDER BY seq LIMIT :limit")
                .bind("root", rootRunId)
                .bind("from", fromSeq)
                .bind("limit", limit)
                .map(JournalRows.of(rootRunId))
                .list());
  }
}

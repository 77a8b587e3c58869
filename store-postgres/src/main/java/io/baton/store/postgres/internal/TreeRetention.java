package io.baton.store.postgres.internal;

import io.baton.journal.RunStatus;
import io.baton.store.RunRetention.Deadline;
import io.baton.store.RunRetention.Discarded;
import io.baton.store.RunRetention.FinishedTree;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * Retention of finished run trees on PostgreSQL (see {@code RunRetention}). A deletion batch locks
 * its roots with {@code FOR UPDATE SKIP LOCKED}, so deleters on several nodes take disjoint trees
 * and never wait for each other or for an owner's append (which locks the same root row: an append
 * to a tree being deleted waits for the short transaction, then finds no root). Everything a tree
 * owns goes in that one transaction. Thread-safe.
 */
public final class TreeRetention {
  /** The condition of a finished root, written exactly as the partial indexes of V5 say it. */
  private static final String FINISHED =
      "parent_run_id IS NULL AND status IN ('SUCCEEDED', 'CANCELLED', 'FAILED')"
          + " AND NOT (status = 'FAILED' AND recoverable)";

  private final Database database;

  public TreeRetention(Database database) {
    this.database = database;
  }

  public List<FinishedTree> finishedWithoutDeadline(int limit) {
    return database.withHandle(
        "list finished runs without a retention deadline",
        handle ->
            handle
                .createQuery(
                    "SELECT id, flow_name, flow_hash, updated_at FROM runs WHERE "
                        + FINISHED
                        + " AND retention_basis IS DISTINCT FROM updated_at"
                        + " ORDER BY updated_at LIMIT :limit")
                .bind("limit", limit)
                .map(
                    (rs, ctx) ->
                        new FinishedTree(
                            Sql.uuid(rs, "id"),
                            rs.getString("flow_name"),
                            rs.getString("flow_hash"),
                            Sql.instant(rs, "updated_at")))
                .list());
  }

  public void setDeadlines(Collection<Deadline> deadlines) {
    if (deadlines.isEmpty()) {
      return;
    }
    database.inTransaction(
        "give " + deadlines.size() + " finished runs their retention deadlines",
        handle -> {
          PreparedBatch batch =
              handle.prepareBatch(
                  "UPDATE runs SET retention_deadline = :deadline, retention_basis = :basis"
                      + " WHERE id = :id AND updated_at = :basis AND "
                      + FINISHED);
          for (Deadline deadline : deadlines) {
            batch
                .bind("id", deadline.rootRunId())
                .bind("basis", Sql.timestamp(deadline.finishedAt()))
                .bind("deadline", Sql.timestamp(deadline.deleteAt()))
                .add();
          }
          return batch.execute();
        });
  }

  public List<UUID> deleteExpired(Instant now, int limit) {
    return database.inTransaction(
        "delete finished runs past their retention",
        handle -> {
          List<UUID> roots =
              handle
                  .createQuery(
                      "SELECT id FROM runs WHERE "
                          + FINISHED
                          + " AND retention_deadline IS NOT NULL"
                          + " AND retention_deadline <= :now AND retention_basis = updated_at"
                          + " ORDER BY retention_deadline LIMIT :limit FOR UPDATE SKIP LOCKED")
                  .bind("now", Sql.timestamp(now))
                  .bind("limit", limit)
                  .mapTo(UUID.class)
                  .list();
          deleteTrees(handle, roots);
          return roots;
        });
  }

  public Discarded discardTree(UUID rootRunId) {
    return database.inTransaction(
        "discard run " + rootRunId,
        handle -> {
          Optional<String> status =
              handle
                  .createQuery(
                      "SELECT status FROM runs WHERE id = :root AND parent_run_id IS NULL"
                          + " FOR UPDATE")
                  .bind("root", rootRunId)
                  .mapTo(String.class)
                  .findOne();
          if (status.isEmpty()) {
            return Discarded.ABSENT;
          }
          if (!RunStatus.valueOf(status.get()).isTerminal()) {
            return Discarded.LIVE;
          }
          deleteTrees(handle, List.of(rootRunId));
          return Discarded.DELETED;
        });
  }

  /** Deletes the trees of locked roots, with everything they own, in the caller's transaction. */
  private static void deleteTrees(Handle handle, List<UUID> roots) {
    if (roots.isEmpty()) {
      return;
    }
    for (String table :
        List.of(
            "run_signals",
            "journal_checkpoints",
            "journal_step_completions",
            "journal_archive",
            "journal")) {
      handle
          .createUpdate("DELETE FROM " + table + " WHERE root_run_id = ANY(:roots)")
          .bindArray("roots", UUID.class, roots)
          .execute();
    }
    List<String> hashes =
        handle
            .createQuery("DELETE FROM runs WHERE root_run_id = ANY(:roots) RETURNING flow_hash")
            .bindArray("roots", UUID.class, roots)
            .mapTo(String.class)
            .list();
    deleteLooseBlobs(handle, hashes);
  }

  /**
   * Deletes the blobs of the deleted runs' flows that no flow version names and no remaining run
   * pins. Every definition is saved as a flow version, so the second check (a scan of {@code
   * runs.flow_hash}, which has no index) runs only for a blob stored without one.
   */
  private static void deleteLooseBlobs(Handle handle, List<String> hashes) {
    List<String> distinct = hashes.stream().distinct().toList();
    List<String> loose =
        handle
            .createQuery(
                "SELECT h FROM unnest(:hashes) AS h"
                    + " WHERE NOT EXISTS (SELECT 1 FROM flows f WHERE f.hash = h)")
            .bindArray("hashes", String.class, distinct)
            .mapTo(String.class)
            .list();
    List<String> orphaned = new ArrayList<>();
    for (String hash : loose) {
      boolean pinned =
          handle
              .createQuery("SELECT EXISTS (SELECT 1 FROM runs WHERE flow_hash = :hash)")
              .bind("hash", hash)
              .mapTo(Boolean.class)
              .one();
      if (!pinned) {
        orphaned.add(hash);
      }
    }
    if (!orphaned.isEmpty()) {
      handle
          .createUpdate("DELETE FROM blobs WHERE hash = ANY(:hashes)")
          .bindArray("hashes", String.class, orphaned)
          .execute();
    }
  }
}

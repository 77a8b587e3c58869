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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retention of finished run trees on PostgreSQL (see {@code RunRetention}). A deletion batch locks
 * its roots with {@code FOR UPDATE SKIP LOCKED}, so deleters on several nodes take disjoint trees
 * and never wait for each other or for an owner's append (which locks the same root row: an append
 * to a tree being deleted waits for the short transaction, then finds no root).
 *
 * <p>A tree goes in two steps, so that no transaction grows with the tree (a run of a million
 * entries would otherwise be one delete holding its locks and WAL to the end). The batch's
 * transaction detaches it: its {@code runs} rows, checkpoint and signals go, and the root is
 * recorded in {@code deleted_trees}; from that commit on the tree is gone for the API (no run, no
 * listing, no journal page, which all start from the run's row) and for owners (no root to append
 * to). Its journal and archive are then deleted in chunks of at most {@code chunkRows} rows, one
 * short transaction each, at most {@code chunksPerPass} per call; what a call leaves (or a node
 * that died leaves) the next call on any node finishes, oldest work first. Each chunk locks its
 * root's {@code deleted_trees} row with {@code SKIP LOCKED}, so nodes purge disjoint trees.
 * Thread-safe.
 */
public final class TreeRetention {
  private static final Logger log = LoggerFactory.getLogger(TreeRetention.class);

  /** Rows one purge transaction deletes at most. */
  public static final int DEFAULT_CHUNK_ROWS = 5_000;

  /** Purge transactions one deletion call runs at most (then the next pass goes on). */
  public static final int DEFAULT_CHUNKS_PER_PASS = 100;

  /** What a detached tree still owns, deleted chunk by chunk, the hot journal last. */
  private static final List<String> PURGED_TABLES = List.of("journal_archive", "journal");

  /** The condition of a finished root, written exactly as the partial indexes of V5 say it. */
  private static final String FINISHED =
      "parent_run_id IS NULL AND status IN ('SUCCEEDED', 'CANCELLED', 'FAILED')"
          + " AND NOT (status = 'FAILED' AND recoverable)";

  private final Database database;

  private final int chunkRows;
  private final int chunksPerPass;

  public TreeRetention(Database database) {
    this(database, DEFAULT_CHUNK_ROWS, DEFAULT_CHUNKS_PER_PASS);
  }

  public TreeRetention(Database database, int chunkRows, int chunksPerPass) {
    if (chunkRows < 1 || chunksPerPass < 1) {
      throw new IllegalArgumentException(
          "chunkRows and chunksPerPass must be at least 1, not "
              + chunkRows
              + ", "
              + chunksPerPass);
    }
    this.database = database;
    this.chunkRows = chunkRows;
    this.chunksPerPass = chunksPerPass;
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
    List<UUID> detached = detachExpired(now, limit);
    try {
      purgeDetached();
    } catch (RuntimeException failure) {
      // The detached trees are gone for everyone already; what they still own waits in
      // deleted_trees for the next pass, so the deletion is reported as done.
      log.warn(
          "could not delete the rest of {} detached run trees now, the next pass will: {}",
          detached.size(),
          failure.toString());
    }
    return detached;
  }

  private List<UUID> detachExpired(Instant now, int limit) {
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
          detachTrees(handle, roots);
          return roots;
        });
  }

  public Discarded discardTree(UUID rootRunId) {
    Discarded discarded =
        database.inTransaction(
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
              detachTrees(handle, List.of(rootRunId));
              return Discarded.DELETED;
            });
    if (discarded == Discarded.DELETED) {
      purgeDetached();
    }
    return discarded;
  }

  /**
   * Deletes what detached trees still own, a chunk per transaction, until nothing is left or the
   * pass has run {@code chunksPerPass} chunks.
   */
  private void purgeDetached() {
    for (int chunk = 0; chunk < chunksPerPass; chunk++) {
      if (!database.inTransaction("delete a chunk of deleted run trees", this::purgeChunk)) {
        return;
      }
    }
  }

  /**
   * Deletes up to {@code chunkRows} rows of one detached tree no other node is purging, and forgets
   * the tree once a chunk finds less than it may take (nothing of it is left); false when no tree
   * was there to purge.
   */
  private boolean purgeChunk(Handle handle) {
    Optional<UUID> root =
        handle
            .createQuery("SELECT root_run_id FROM deleted_trees LIMIT 1 FOR UPDATE SKIP LOCKED")
            .mapTo(UUID.class)
            .findOne();
    if (root.isEmpty()) {
      return false;
    }
    int deleted = 0;
    for (String table : PURGED_TABLES) {
      deleted +=
          handle
              .createUpdate(
                  "DELETE FROM "
                      + table
                      + " WHERE ctid = ANY(ARRAY(SELECT ctid FROM "
                      + table
                      + " WHERE root_run_id = :root LIMIT :rows))")
              .bind("root", root.get())
              .bind("rows", chunkRows - deleted)
              .execute();
      if (deleted >= chunkRows) {
        return true;
      }
    }
    handle
        .createUpdate("DELETE FROM deleted_trees WHERE root_run_id = :root")
        .bind("root", root.get())
        .execute();
    return true;
  }

  /**
   * Detaches the trees of locked roots in the caller's transaction: their run rows, checkpoints and
   * signals go, and the roots are recorded for {@link #purgeChunk} to delete the rest.
   */
  private static void detachTrees(Handle handle, List<UUID> roots) {
    if (roots.isEmpty()) {
      return;
    }
    for (String table : List.of("run_signals", "journal_checkpoints")) {
      handle
          .createUpdate("DELETE FROM " + table + " WHERE root_run_id = ANY(:roots)")
          .bindArray("roots", UUID.class, roots)
          .execute();
    }
    handle
        .createUpdate(
            "INSERT INTO deleted_trees (root_run_id) SELECT unnest(:roots) ON CONFLICT DO NOTHING")
        .bindArray("roots", UUID.class, roots)
        .execute();
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

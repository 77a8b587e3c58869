package io.baton.store.postgres;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.Checkpoint;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.FencedOutException;
import io.baton.journal.JournalEntry;
import io.baton.journal.UnknownRootException;
import io.baton.store.postgres.internal.Database;
import io.baton.store.postgres.internal.JournalArchive;
import io.baton.store.postgres.internal.JournalRows;
import io.baton.store.postgres.internal.JournalWriter;
import io.baton.store.postgres.internal.Sql;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * The {@link ExecutionJournal} on PostgreSQL. An append is one transaction that locks the root's
 * {@code runs} row (whose {@code owner_token} is the fence and {@code latest_seq} the journal's
 * end), checks fence and sequence, inserts the entries and projects them onto the {@code runs}
 * rows; {@link #appendAll} does the same for a whole batch in one transaction, where a refused
 * request fails alone. Transient failures are retried for the configured window; an ambiguous
 * commit is retried safely because identical appends are recognised. The hot journal also holds, at
 * negative sequences, the stubs of archived step completions (see {@code JournalArchive}); no read
 * returns them. Thread-safe.
 */
public final class PostgresJournal implements ExecutionJournal {
  private final Database database;
  private final JournalWriter writer;
  private final JournalArchive archive;

  PostgresJournal(Database database) {
    this.database = database;
    this.writer = new JournalWriter(database);
    this.archive = new JournalArchive(database);
  }

  @Override
  public void append(AppendRequest request) {
    writer.appendAll(List.of(request)).get(0).throwIfFailed();
  }

  @Override
  public List<AppendResult> appendAll(List<AppendRequest> requests) {
    return writer.appendAll(requests);
  }

  @Override
  public List<JournalEntry> readFrom(UUID rootRunId, long fromSeq, int limit) {
    if (limit <= 0) {
      return List.of();
    }
    return database.withHandle(
        "read the journal of run " + rootRunId,
        handle ->
            handle
                .createQuery(
                    "SELECT run_id, seq, ts, event::text AS event FROM journal"
                        + " WHERE root_run_id = :root AND seq >= :from AND seq > 0"
                        + " ORDER BY seq LIMIT :limit")
                .bind("root", rootRunId)
                .bind("from", fromSeq)
                .bind("limit", limit)
                .map(JournalRows.of(rootRunId))
                .list());
  }

  @Override
  public long latestSequence(UUID rootRunId) {
    return rootColumn(rootRunId, "latest_seq").orElse(0);
  }

  @Override
  public OptionalLong currentToken(UUID rootRunId) {
    return rootColumn(rootRunId, "owner_token");
  }

  private OptionalLong rootColumn(UUID rootRunId, String column) {
    Optional<Long> value =
        database.withHandle(
            "read the journal state of run " + rootRunId,
            handle ->
                handle
                    .createQuery(
                        "SELECT "
                            + column
                            + " FROM runs WHERE id = :root AND parent_run_id IS NULL")
                    .bind("root", rootRunId)
                    .mapTo(Long.class)
                    .findOne());
    return value.map(OptionalLong::of).orElse(OptionalLong.empty());
  }

  /** A root's fence and last sequence. */
  private record JournalEnd(long fence, long latestSeq) {}

  @Override
  public void checkpoint(UUID rootRunId, long token, Checkpoint checkpoint) {
    database.inTransaction(
        "store a checkpoint of run " + rootRunId,
        handle -> {
          JournalEnd end =
              handle
                  .createQuery(
                      "SELECT owner_token, latest_seq FROM runs"
                          + " WHERE id = :root AND parent_run_id IS NULL FOR UPDATE")
                  .bind("root", rootRunId)
                  .map((rs, ctx) -> new JournalEnd(rs.getLong(1), rs.getLong(2)))
                  .findOne()
                  .orElseThrow(() -> new UnknownRootException(rootRunId));
          if (end.fence() != token) {
            throw new FencedOutException(rootRunId, token, end.fence());
          }
          if (checkpoint.seq() > end.latestSeq()) {
            throw new IllegalArgumentException(
                "checkpoint at seq "
                    + checkpoint.seq()
                    + " is beyond the end of the journal of "
                    + rootRunId
                    + " (seq "
                    + end.latestSeq()
                    + ")");
          }
          return handle
              .createUpdate(
                  "INSERT INTO journal_checkpoints (root_run_id, seq, snapshot, created_at)"
                      + " VALUES (:root, :seq, CAST(:snapshot AS jsonb), :createdAt)"
                      + " ON CONFLICT (root_run_id) DO UPDATE SET seq = excluded.seq,"
                      + " snapshot = excluded.snapshot, created_at = excluded.created_at"
                      + " WHERE journal_checkpoints.seq <= excluded.seq")
              .bind("root", rootRunId)
              .bind("seq", checkpoint.seq())
              .bind("snapshot", Sql.json(checkpoint.snapshot()))
              .bind("createdAt", Sql.timestamp(checkpoint.createdAt()))
              .execute();
        });
  }

  @Override
  public Optional<Checkpoint> getCheckpoint(UUID rootRunId) {
    return database.withHandle(
        "read the checkpoint of run " + rootRunId,
        handle ->
            handle
                .createQuery(
                    "SELECT seq, snapshot::text AS snapshot, created_at FROM journal_checkpoints"
                        + " WHERE root_run_id = :root")
                .bind("root", rootRunId)
                .map(
                    (rs, ctx) ->
                        new Checkpoint(
                            rs.getLong("seq"),
                            Sql.json(rs.getString("snapshot")),
                            Sql.instant(rs, "created_at")))
                .findOne());
  }

  @Override
  public Map<UUID, List<JournalEntry>> readAll(Collection<UUID> rootRunIds) {
    if (rootRunIds.isEmpty()) {
      return Map.of();
    }
    Map<UUID, List<JournalEntry>> journals = new LinkedHashMap<>();
    database
        .withHandle(
            "read the journals of " + rootRunIds.size() + " runs",
            handle ->
                handle
                    .createQuery(
                        "SELECT root_run_id, run_id, seq, ts, event::text AS event FROM journal"
                            + " WHERE root_run_id = ANY(:roots) AND seq > 0"
                            + " ORDER BY root_run_id, seq")
                    .bindArray("roots", UUID.class, rootRunIds)
                    .map(JournalRows.WITH_ROOT)
                    .list())
        .forEach(
            entry ->
                journals.computeIfAbsent(entry.rootRunId(), r -> new ArrayList<>()).add(entry));
    return journals;
  }

  @Override
  public Map<UUID, List<JournalEntry>> readAllAfter(Map<UUID, Long> afterSeq) {
    if (afterSeq.isEmpty()) {
      return Map.of();
    }
    List<UUID> roots = new ArrayList<>(afterSeq.keySet());
    List<Long> afters = roots.stream().map(afterSeq::get).toList();
    Map<UUID, List<JournalEntry>> journals = new LinkedHashMap<>();
    database
        .withHandle(
            "read the journals of " + roots.size() + " runs after their checkpoints",
            handle ->
                handle
                    .createQuery(
                        "SELECT j.root_run_id, j.run_id, j.seq, j.ts, j.event::text AS event"
                            + " FROM unnest(:roots, :afters) AS f(root, after_seq)"
                            + " JOIN journal j ON j.root_run_id = f.root"
                            + " AND j.seq > f.after_seq AND j.seq > 0"
                            + " ORDER BY j.root_run_id, j.seq")
                    .bindArray("roots", UUID.class, roots)
                    .bindArray("afters", Long.class, afters)
                    .map(JournalRows.WITH_ROOT)
                    .list())
        .forEach(
            entry ->
                journals.computeIfAbsent(entry.rootRunId(), r -> new ArrayList<>()).add(entry));
    return journals;
  }

  @Override
  public Map<UUID, Checkpoint> getCheckpoints(Collection<UUID> rootRunIds) {
    if (rootRunIds.isEmpty()) {
      return Map.of();
    }
    Map<UUID, Checkpoint> checkpoints = new LinkedHashMap<>();
    database
        .withHandle(
            "read the checkpoints of " + rootRunIds.size() + " runs",
            handle ->
                handle
                    .createQuery(
                        "SELECT root_run_id, seq, snapshot::text AS snapshot, created_at"
                            + " FROM journal_checkpoints WHERE root_run_id = ANY(:roots)")
                    .bindArray("roots", UUID.class, rootRunIds)
                    .map(
                        (rs, ctx) ->
                            Map.entry(
                                Sql.uuid(rs, "root_run_id"),
                                new Checkpoint(
                                    rs.getLong("seq"),
                                    Sql.json(rs.getString("snapshot")),
                                    Sql.instant(rs, "created_at"))))
                    .list())
        .forEach(entry -> checkpoints.put(entry.getKey(), entry.getValue()));
    return checkpoints;
  }

  @Override
  public List<JournalEntry> readHistory(UUID rootRunId, long fromSeq, int limit) {
    return archive.readHistory(rootRunId, fromSeq, limit);
  }

  @Override
  public int compact(UUID rootRunId) {
    return archive.compact(rootRunId);
  }

  @Override
  public int archiveCovered(int limit) {
    return archive.archiveCovered(limit);
  }

  @Override
  public List<UUID> listActiveRoots(UUID after, int limit) {
    if (limit <= 0) {
      return List.of();
    }
    return database.withHandle(
        "list active run trees",
        handle -> {
          var query =
              handle
                  .createQuery(
                      "SELECT id FROM runs WHERE parent_run_id IS NULL"
                          + " AND status IN ('PENDING', 'RUNNING', 'WAITING')"
                          + (after == null ? "" : " AND id > :after")
                          + " ORDER BY id LIMIT :limit")
                  .bind("limit", limit);
          if (after != null) {
            query.bind("after", after);
          }
          return query.mapTo(UUID.class).list();
        });
  }
}

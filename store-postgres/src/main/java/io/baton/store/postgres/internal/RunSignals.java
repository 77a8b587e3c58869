package io.baton.store.postgres.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.RunStatus;
import io.baton.store.RunFinishedException;
import io.baton.store.Signal;
import io.baton.store.SignalType;
import io.baton.store.StoreException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The {@code run_signals} table: signals waiting in a run tree's inbox until its owner applies
 * them. Adding a signal locks the tree's root row, the same lock an append that parks or finishes
 * the root holds: either the append sees the signal (a park makes the root due, a finish deletes
 * it) or the signal sees the root WAITING and makes it due, or finished and is refused.
 * Thread-safe.
 */
public final class RunSignals {
  private static final String COLUMNS =
      "s.id, s.root_run_id, s.run_id, s.type, s.step, s.payload::text AS payload, s.created_at";

  private final Database database;

  public RunSignals(Database database) {
    this.database = database;
  }

  private record SignalledRoot(UUID id, RunStatus status, Instant wakeAt) {}

  /** Records a signal and makes a WAITING root due at once, in one transaction. */
  public Signal add(UUID runId, SignalType type, String step, JsonNode payload, Instant now) {
    Instant at = Sql.micros(now);
    return database.inTransaction(
        "signal run " + runId,
        handle -> {
          SignalledRoot root =
              handle
                  .createQuery(
                      "SELECT root.id, root.status, root.wake_at FROM runs run"
                          + " JOIN runs root ON root.id = run.root_run_id"
                          + " WHERE run.id = :run FOR UPDATE OF root")
                  .bind("run", runId)
                  .map(
                      (rs, ctx) ->
                          new SignalledRoot(
                              Sql.uuid(rs, "id"),
                              RunStatus.valueOf(rs.getString("status")),
                              Sql.instant(rs, "wake_at")))
                  .findOne()
                  .orElseThrow(
                      () -> new StoreException("no run " + runId + " to signal", runId, null));
          if (root.status().isTerminal()) {
            throw new RunFinishedException(runId, root.status());
          }
          long id =
              handle
                  .createUpdate(
                      "INSERT INTO run_signals (root_run_id, run_id, type, step, payload,"
                          + " created_at) VALUES (:root, :run, :type, :step,"
                          + " CAST(:payload AS jsonb), :at)")
                  .bind("root", root.id())
                  .bind("run", runId)
                  .bind("type", type.name())
                  .bind("step", step)
                  .bind("payload", Sql.json(payload))
                  .bind("at", Sql.timestamp(at))
                  .executeAndReturnGeneratedKeys("id")
                  .mapTo(Long.class)
                  .one();
          if (root.status() == RunStatus.WAITING
              && (root.wakeAt() == null || root.wakeAt().isAfter(at))) {
            handle
                .createUpdate("UPDATE runs SET wake_at = :at WHERE id = :root")
                .bind("at", Sql.timestamp(at))
                .bind("root", root.id())
                .execute();
          }
          return new Signal(id, root.id(), runId, type, step, payload, at);
        });
  }

  /** Signals waiting for the tree, oldest first. */
  public List<Signal> forTree(UUID rootRunId) {
    return database.withHandle(
        "read the signals of run " + rootRunId,
        handle ->
            handle
                .createQuery(
                    "SELECT "
                        + COLUMNS
                        + " FROM run_signals s WHERE s.root_run_id = :root"
                        + " ORDER BY s.id")
                .bind("root", rootRunId)
                .mapTo(Signal.class)
                .list());
  }

  /** Signals waiting for each of the trees, oldest first; trees without any are absent. */
  public Map<UUID, List<Signal>> forTrees(Collection<UUID> rootRunIds) {
    Map<UUID, List<Signal>> signals = new LinkedHashMap<>();
    if (rootRunIds.isEmpty()) {
      return signals;
    }
    database
        .withHandle(
            "read the signals of " + rootRunIds.size() + " runs",
            handle ->
                handle
                    .createQuery(
                        "SELECT "
                            + COLUMNS
                            + " FROM run_signals s WHERE s.root_run_id = ANY(:roots) ORDER BY s.id")
                    .bindArray("roots", UUID.class, rootRunIds)
                    .mapTo(Signal.class)
                    .list())
        .forEach(
            signal ->
                signals.computeIfAbsent(signal.rootRunId(), r -> new ArrayList<>()).add(signal));
    return signals;
  }

  /** Removes the signals; unknown ids are ignored. */
  public void delete(Collection<Long> signalIds) {
    if (signalIds.isEmpty()) {
      return;
    }
    database.withHandle(
        "delete " + signalIds.size() + " signals",
        handle ->
            handle
                .createUpdate("DELETE FROM run_signals WHERE id = ANY(:ids)")
                .bindArray("ids", Long.class, signalIds)
                .execute());
  }

  /** A row selected with {@code COLUMNS}; registered as the mapper of {@link Signal}. */
  static Signal map(ResultSet rs) throws SQLException {
    return new Signal(
        rs.getLong("id"),
        Sql.uuid(rs, "root_run_id"),
        Sql.uuid(rs, "run_id"),
        SignalType.valueOf(rs.getString("type")),
        rs.getString("step"),
        Sql.json(rs.getString("payload")),
        Sql.instant(rs, "created_at"));
  }
}

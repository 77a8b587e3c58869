package io.baton.store.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.RunStatus;
import io.baton.store.FlowRecord;
import io.baton.store.MetadataStore;
import io.baton.store.RunFilter;
import io.baton.store.RunPage;
import io.baton.store.RunPosition;
import io.baton.store.RunQuery;
import io.baton.store.RunRecord;
import io.baton.store.Signal;
import io.baton.store.SignalType;
import io.baton.store.postgres.internal.Database;
import io.baton.store.postgres.internal.FlowVersions;
import io.baton.store.postgres.internal.RunListing;
import io.baton.store.postgres.internal.RunRows;
import io.baton.store.postgres.internal.RunSignals;
import io.baton.store.postgres.internal.Sql;
import io.baton.store.postgres.internal.TreeRetention;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.jdbi.v3.core.statement.Query;

/**
 * The {@link MetadataStore} on PostgreSQL. Run rows are written only by {@link PostgresJournal}'s
 * appends; this class reads them through the indexes the recovery queries need, and keeps flows and
 * the signal inbox. Every call is one statement or one transaction, retried after transient
 * failures. Thread-safe.
 */
public final class PostgresMetadataStore implements MetadataStore {
  private static final String ROOTS = "parent_run_id IS NULL";

  private final Database database;
  private final FlowVersions flows;
  private final RunSignals signals;
  private final RunListing listing;
  private final TreeRetention retention;

  PostgresMetadataStore(Database database) {
    this.database = database;
    this.retention = new TreeRetention(database);
    this.flows = new FlowVersions(database);
    this.signals = new RunSignals(database);
    this.listing = new RunListing(database);
  }

  // --- flows -------------------------------------------------------------------------------

  @Override
  public void saveFlow(FlowRecord flow) {
    flows.save(flow);
  }

  @Override
  public Optional<FlowRecord> latestFlow(String name) {
    return flows.versions(name, 1).stream().findFirst();
  }

  @Override
  public List<FlowRecord> listFlows() {
    return flows.latestOfEach();
  }

  @Override
  public List<FlowRecord> flowVersions(String name) {
    return flows.versions(name, Integer.MAX_VALUE);
  }

  // --- runs ----------------------------------------------------------------------------------

  @Override
  public Optional<RunRecord> findRun(UUID runId) {
    return database.withHandle(
        "read run " + runId,
        handle ->
            handle
                .createQuery("SELECT " + RunRows.ALL_COLUMNS + " FROM runs WHERE id = :id")
                .bind("id", runId)
                .mapTo(RunRecord.class)
                .findOne());
  }

  @Override
  public Optional<RunRecord> findRunByIdempotencyKey(String idempotencyKey) {
    return database.withHandle(
        "find the run of an idempotency key",
        handle ->
            handle
                .createQuery(
                    "SELECT " + RunRows.ALL_COLUMNS + " FROM runs WHERE idempotency_key = :key")
                .bind("key", idempotencyKey)
                .mapTo(RunRecord.class)
                .findOne());
  }

  @Override
  public List<RunRecord> listRuns(RunQuery filter) {
    List<String> conditions = new ArrayList<>();
    conditions.add("true");
    if (filter.status() != null) {
      conditions.add("status = :status");
    }
    if (filter.flowName() != null) {
      conditions.add("flow_name = :flow");
    }
    if (filter.node() != null) {
      conditions.add("orchestrator_id = :node");
    }
    if (filter.rootsOnly()) {
      conditions.add(ROOTS);
    }
    String sql =
        "SELECT "
            + RunRows.ALL_COLUMNS
            + " FROM runs WHERE "
            + String.join(" AND ", conditions)
            + " ORDER BY created_seq DESC LIMIT :limit";
    return database.withHandle(
        "list runs",
        handle -> {
          Query query = handle.createQuery(sql).bind("limit", filter.limit());
          if (filter.status() != null) {
            query.bind("status", filter.status().name());
          }
          if (filter.flowName() != null) {
            query.bind("flow", filter.flowName());
          }
          if (filter.node() != null) {
            query.bind("node", filter.node());
          }
          return query.mapTo(RunRecord.class).list();
        });
  }

  @Override
  public RunPage pageRuns(RunFilter filter, RunPosition after, int limit) {
    checkLimit(limit);
    return listing.page(filter, after, limit);
  }

  /**
   * How PostgreSQL executes {@link #pageRuns} for these arguments: {@code EXPLAIN (ANALYZE,
   * BUFFERS)} of the very statement, line by line. For tests and benchmarks that show which index
   * serves a filter.
   */
  public List<String> explainPageRuns(RunFilter filter, RunPosition after, int limit) {
    checkLimit(limit);
    return listing.explain(filter, after, limit);
  }

  @Override
  public List<RunRecord> runsChangedAfter(RunPosition after, int limit) {
    checkLimit(limit);
    return listing.changedAfter(after, limit);
  }

  private static void checkLimit(int limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive, got " + limit);
    }
  }

  @Override
  public List<RunRecord> listTree(UUID rootRunId) {
    return database.withHandle(
        "list the tree of run " + rootRunId,
        handle ->
            handle
                .createQuery(
                    "SELECT "
                        + RunRows.ALL_COLUMNS
                        + " FROM runs WHERE root_run_id = :root ORDER BY created_seq")
                .bind("root", rootRunId)
                .mapTo(RunRecord.class)
                .list());
  }

  @Override
  public List<UUID> findRootsOwnedBy(String nodeId, RunStatus status, int limit) {
    return database.withHandle(
        "find the " + status + " runs of node " + nodeId,
        handle ->
            handle
                .createQuery(
                    "SELECT id FROM runs WHERE "
                        + ROOTS
                        + " AND status = :status AND orchestrator_id = :node"
                        + " ORDER BY created_seq LIMIT :limit")
                .bind("status", status.name())
                .bind("node", nodeId)
                .bind("limit", limit)
                .mapTo(UUID.class)
                .list());
  }

  @Override
  public List<UUID> findRunningRootsFencedBelow(String nodeId, long fencedBelow, int limit) {
    return database.withHandle(
        "find the running runs of node " + nodeId + " fenced below " + fencedBelow,
        handle ->
            handle
                .createQuery(
                    "SELECT id FROM runs WHERE "
                        + ROOTS
                        + " AND status = 'RUNNING' AND orchestrator_id = :node"
                        + " AND owner_token < :below ORDER BY created_seq LIMIT :limit")
                .bind("node", nodeId)
                .bind("below", fencedBelow)
                .bind("limit", limit)
                .mapTo(UUID.class)
                .list());
  }

  @Override
  public List<RunRecord> findRunningRootsOutside(Collection<String> liveNodes, int limit) {
    return database.withHandle(
        "find running runs of nodes that are gone",
        handle ->
            handle
                .createQuery(
                    "SELECT "
                        + RunRows.ALL_COLUMNS
                        + " FROM runs WHERE "
                        + ROOTS
                        + " AND status = 'RUNNING'"
                        + " AND (orchestrator_id IS NULL OR NOT orchestrator_id = ANY(:live))"
                        + " ORDER BY created_seq LIMIT :limit")
                .bindArray("live", String.class, liveNodes)
                .bind("limit", limit)
                .mapTo(RunRecord.class)
                .list());
  }

  @Override
  public List<UUID> findPendingRoots(int limit) {
    return database.withHandle(
        "find pending runs",
        handle ->
            handle
                .createQuery(
                    "SELECT id FROM runs WHERE "
                        + ROOTS
                        + " AND status = 'PENDING' ORDER BY created_seq LIMIT :limit")
                .bind("limit", limit)
                .mapTo(UUID.class)
                .list());
  }

  @Override
  public List<UUID> findDueWaitingRoots(Instant now, int limit) {
    return database.withHandle(
        "find waiting runs that are due",
        handle ->
            handle
                .createQuery(
                    "SELECT id FROM runs WHERE "
                        + ROOTS
                        + " AND status = 'WAITING' AND wake_at <= :now"
                        + " ORDER BY wake_at, created_seq LIMIT :limit")
                .bind("now", Sql.timestamp(now))
                .bind("limit", limit)
                .mapTo(UUID.class)
                .list());
  }

  @Override
  public Map<String, Integer> countRunningRootsByNode() {
    return database.withHandle(
        "count running runs by node",
        handle ->
            handle
                .createQuery(
                    "SELECT orchestrator_id, count(*) AS runs FROM runs WHERE "
                        + ROOTS
                        + " AND status = 'RUNNING' AND orchestrator_id IS NOT NULL"
                        + " GROUP BY orchestrator_id")
                .reduceResultSet(
                    new TreeMap<String, Integer>(),
                    (counts, rs, ctx) -> {
                      counts.put(rs.getString("orchestrator_id"), rs.getInt("runs"));
                      return counts;
                    }));
  }

  @Override
  public Map<RunStatus, Long> countRunsByStatus() {
    return database.withHandle(
        "count runs by status",
        handle ->
            handle
                .createQuery("SELECT status, count(*) AS runs FROM runs GROUP BY status")
                .reduceResultSet(
                    new EnumMap<RunStatus, Long>(RunStatus.class),
                    (counts, rs, ctx) -> {
                      counts.put(RunStatus.valueOf(rs.getString("status")), rs.getLong("runs"));
                      return counts;
                    }));
  }

  // --- signals -------------------------------------------------------------------------------

  @Override
  public Signal addSignal(UUID runId, SignalType type, String step, JsonNode payload, Instant now) {
    return signals.add(runId, type, step, payload, now);
  }

  @Override
  public List<Signal> signalsFor(UUID rootRunId) {
    return signals.forTree(rootRunId);
  }

  @Override
  public Map<UUID, List<Signal>> signalsForTrees(Collection<UUID> rootRunIds) {
    return signals.forTrees(rootRunIds);
  }

  @Override
  public void deleteSignals(Collection<Long> signalIds) {
    signals.delete(signalIds);
  }

  // --- health --------------------------------------------------------------------------------

  @Override
  public void ping() {
    database.once("ping", handle -> handle.createQuery("SELECT 1").mapTo(Integer.class).one());
  }

  // --- retention -----------------------------------------------------------------------------

  @Override
  public List<FinishedTree> finishedWithoutDeadline(int limit) {
    return retention.finishedWithoutDeadline(limit);
  }

  @Override
  public void setDeadlines(Collection<Deadline> deadlines) {
    retention.setDeadlines(deadlines);
  }

  @Override
  public List<UUID> deleteExpired(Instant now, int limit) {
    return retention.deleteExpired(now, limit);
  }

  @Override
  public Discarded discardTree(UUID rootRunId) {
    return retention.discardTree(rootRunId);
  }
}

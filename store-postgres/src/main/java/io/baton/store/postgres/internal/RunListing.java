package io.baton.store.postgres.internal;

import io.baton.journal.RunStatus;
import io.baton.store.RunFilter;
import io.baton.store.RunPage;
import io.baton.store.RunPosition;
import io.baton.store.RunRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jdbi.v3.core.statement.Query;

/**
 * The keyset-paged run listing and the change feed as SQL. Every filter is a bound parameter, and
 * each listing is planned for its parameters (the session's {@code force_custom_plan}). Several
 * statuses are read as one ordered index scan per status merged by a {@code UNION ALL}, so a page
 * of rare statuses never walks the common ones (indexes of migrations V3 and V10).
 */
public final class RunListing {
  private static final String ORDER_NEWEST = " ORDER BY created_at DESC, id DESC LIMIT :limit";

  private final Database database;

  public RunListing(Database database) {
    this.database = database;
  }

  /** One listing query: its SQL and bound parameters. */
  private record Statement(String sql, Map<String, Object> params) {}

  public RunPage page(RunFilter filter, RunPosition after, int limit) {
    Statement statement = statement(filter, after, limit);
    List<RunRecord> rows =
        database.withHandle(
            "list runs",
            handle ->
                bind(handle.createQuery(statement.sql()), statement.params())
                    .mapTo(RunRecord.class)
                    .list());
    return RunPage.of(rows, limit);
  }

  /** PostgreSQL's plan of {@link #page}, executed ({@code EXPLAIN ANALYZE}), line by line. */
  public List<String> explain(RunFilter filter, RunPosition after, int limit) {
    Statement statement = statement(filter, after, limit);
    return database.withHandle(
        "explain a run listing",
        handle ->
            bind(
                    handle.createQuery("EXPLAIN (ANALYZE, BUFFERS) " + statement.sql()),
                    statement.params())
                .mapTo(String.class)
                .list());
  }

  private static Statement statement(RunFilter requested, RunPosition after, int limit) {
    RunFilter filter = withoutImpliedStatus(requested);
    Map<String, Object> params = new LinkedHashMap<>();
    List<String> conditions = conditions(filter, after, params);
    params.put("limit", limit + 1);
    if (filter.statuses().size() <= 1) {
      filter.statuses().forEach(s -> addStatus(conditions, params, "status", s));
      return new Statement(select(conditions), params);
    }
    List<String> parts = new ArrayList<>();
    int i = 0;
    for (RunStatus status : new TreeSet<>(filter.statuses())) {
      List<String> part = new ArrayList<>(conditions);
      addStatus(part, params, "status" + i++, status);
      parts.add("(" + select(part) + ")");
    }
    String sql =
        "SELECT * FROM (" + String.join(" UNION ALL ", parts) + ") AS by_status" + ORDER_NEWEST;
    return new Statement(sql, params);
  }

  /**
   * A run has a recorded wait only while WAITING, so a wait filter implies that status: saying it
   * again in SQL only makes PostgreSQL multiply two selectivities that are one (it then expected a
   * tenth of the waiting runs it met, and read them all through a bitmap instead of walking {@code
   * runs_by_waiting_for} for one page).
   */
  private static RunFilter withoutImpliedStatus(RunFilter filter) {
    if (filter.waitingFor() == null
        || !(filter.statuses().isEmpty() || filter.statuses().contains(RunStatus.WAITING))) {
      return filter;
    }
    return filter.withStatuses(Set.of());
  }

  public List<RunRecord> changedAfter(RunPosition after, int limit) {
    return database.withHandle(
        "read the runs changed after " + after.at(),
        handle ->
            handle
                .createQuery(
                    "SELECT "
                        + RunRows.ALL_COLUMNS
                        + " FROM runs WHERE (updated_at, id) > (:at, :id)"
                        + " ORDER BY updated_at, id LIMIT :limit")
                .bind("at", Sql.timestamp(after.at()))
                .bind("id", after.runId())
                .bind("limit", limit)
                .mapTo(RunRecord.class)
                .list());
  }

  private static String select(List<String> conditions) {
    return "SELECT "
        + RunRows.ALL_COLUMNS
        + " FROM runs WHERE "
        + String.join(" AND ", conditions)
        + ORDER_NEWEST;
  }

  private static void addStatus(
      List<String> conditions, Map<String, Object> params, String name, RunStatus status) {
    conditions.add("status = :" + name);
    params.put(name, status.name());
  }

  private static List<String> conditions(
      RunFilter filter, RunPosition after, Map<String, Object> params) {
    List<String> conditions = new ArrayList<>();
    conditions.add("true");
    equal(conditions, params, "flow_name", "flow", filter.flowName());
    equal(conditions, params, "orchestrator_id", "node", filter.node());
    equal(conditions, params, "parent_run_id", "parent", filter.parentRunId());
    equal(conditions, params, "root_run_id", "root", filter.rootRunId());
    equal(conditions, params, "idempotency_key", "key", filter.idempotencyKey());
    equal(conditions, params, "recoverable", "recoverable", filter.recoverable());
    if (!filter.ownerNotIn().isEmpty()) {
      conditions.add("(orchestrator_id IS NULL OR NOT orchestrator_id = ANY(:ownerNotIn))");
      params.put("ownerNotIn", filter.ownerNotIn().toArray(new String[0]));
    }
    if (filter.waitingFor() != null) {
      conditions.add("waiting_for = :waitingFor");
      params.put("waitingFor", filter.waitingFor().name());
    }
    if (filter.triggerEvent() != null) {
      conditions.add("trigger_source = :triggerSource AND trigger_id = :triggerId");
      params.put("triggerSource", filter.triggerEvent().source());
      params.put("triggerId", filter.triggerEvent().id());
    }
    if (filter.rootsOnly()) {
      conditions.add("parent_run_id IS NULL");
    }
    range(conditions, params, "created_at", "created", filter.createdFrom(), filter.createdTo());
    range(conditions, params, "updated_at", "updated", filter.updatedFrom(), filter.updatedTo());
    if (filter.inputContains() != null) {
      conditions.add("input @> CAST(:input AS jsonb)");
      params.put("input", Sql.json(filter.inputContains()));
    }
    if (filter.outputContains() != null) {
      conditions.add("output @> CAST(:output AS jsonb)");
      params.put("output", Sql.json(filter.outputContains()));
    }
    if (filter.inputPath() != null) {
      conditions.add("input @@ CAST(:inputPath AS jsonpath)");
      params.put("inputPath", filter.inputPath().normalized());
    }
    if (filter.outputPath() != null) {
      conditions.add("output @@ CAST(:outputPath AS jsonpath)");
      params.put("outputPath", filter.outputPath().normalized());
    }
    if (after != null) {
      conditions.add("(created_at, id) < (:afterAt, :afterId)");
      params.put("afterAt", Sql.timestamp(after.at()));
      params.put("afterId", after.runId());
    }
    return conditions;
  }

  private static void equal(
      List<String> conditions,
      Map<String, Object> params,
      String column,
      String name,
      Object value) {
    if (value != null) {
      conditions.add(column + " = :" + name);
      params.put(name, value);
    }
  }

  private static void range(
      List<String> conditions,
      Map<String, Object> params,
      String column,
      String name,
      Instant from,
      Instant to) {
    if (from != null) {
      conditions.add(column + " >= :" + name + "From");
      params.put(name + "From", Sql.timestamp(from));
    }
    if (to != null) {
      conditions.add(column + " < :" + name + "To");
      params.put(name + "To", Sql.timestamp(to));
    }
  }

  private static Query bind(Query query, Map<String, Object> params) {
    params.forEach(
        (name, value) -> {
          if (value instanceof String[] texts) {
            query.bindArray(name, String.class, (Object[]) texts);
          } else {
            query.bind(name, value);
          }
        });
    return query;
  }
}

package io.baton.store.postgres.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.JournalCodec;
import io.baton.journal.RunStatus;
import io.baton.journal.RunWait;
import io.baton.store.EventRef;
import io.baton.store.JsonPathPredicate;
import io.baton.store.RunFilter;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A {@code runs} table of many root runs written straight in SQL (no journal: listings read only
 * rows), shaped like a busy installation: 20 flows, 5 nodes, 70 % succeeded, 10 % failed (half of
 * them recoverable), 8 % running, 7 % waiting, 3 % pending, 2 % cancelled, one run every 2.5 s, and
 * inputs naming one of 10,000 customers (a seventh of them gold); of the waiting runs 40 % wait for
 * an approval, 30 % for a timer, 20 % for a retry and 10 % for a child run; a quarter were started
 * by events of one source, two runs per event. Statuses, flows and nodes are drawn independently
 * from a seeded generator, so each combination is as common as the product of its parts. And the
 * filters the dashboard offers, each as the listing receives it. Public for the node's dashboard
 * benchmark, which fills the same table behind a served dashboard.
 */
public final class RunTable {
  static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  static final Duration SPACING = Duration.ofMillis(2500);

  private RunTable() {}

  /** The root of the one tree {@link #fill} writes besides its root runs. */
  static final UUID SOME_TREE =
      UUID.nameUUIDFromBytes("a run of a tree".getBytes(StandardCharsets.UTF_8));

  /**
   * Writes {@code runs} root runs, and one small tree (a root with an idempotency key and three
   * children), into the migrated database of {@code connection}.
   */
  public static void fill(Connection connection, int runs) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("SELECT setseed(0.42)");
    }
    String sql =
        """
        INSERT INTO runs (id, root_run_id, flow_name, flow_hash, status, input, output,
                          recoverable, orchestrator_id, owner_token, created_at, updated_at,
                          waiting_for, waiting, trigger_source, trigger_id)
        SELECT id, id, 'flow-' || flow, 'hash-' || flow,
               CASE WHEN s < 70 THEN 'SUCCEEDED' WHEN s < 80 THEN 'FAILED'
                    WHEN s < 88 THEN 'RUNNING' WHEN s < 95 THEN 'WAITING'
                    WHEN s < 98 THEN 'PENDING' ELSE 'CANCELLED' END,
               jsonb_build_object('customer', 'c-' || (i % 10000),
                                  'tier', CASE WHEN i % 7 = 0 THEN 'gold' ELSE 'silver' END,
                                  'order', i),
               jsonb_build_object('ok', s < 70),
               s >= 70 AND s < 75, 'node-' || node, 1,
               ts, ts + interval '1 second' * (1 + s),
               CASE WHEN s < 88 OR s >= 95 THEN NULL WHEN w < 4 THEN 'APPROVAL'
                    WHEN w < 7 THEN 'TIMER' WHEN w < 9 THEN 'RETRY' ELSE 'CHILD' END,
               CASE WHEN s < 88 OR s >= 95 THEN NULL
                    WHEN w < 4 THEN jsonb_build_object('kind', 'APPROVAL', 'step', 'ask')
                    WHEN w < 7 THEN jsonb_build_object('kind', 'TIMER', 'step', 'nap',
                                                       'at', ts + interval '1 day')
                    WHEN w < 9 THEN jsonb_build_object('kind', 'RETRY', 'step', 'call',
                                                       'attempt', 2, 'maxAttempts', 5,
                                                       'at', ts + interval '1 minute')
                    ELSE jsonb_build_object('kind', 'CHILD', 'step', 'sub') END,
               CASE WHEN i % 4 = 0 THEN 'shop/orders' END,
               CASE WHEN i % 4 = 0 THEN 'evt-' || (i / 8) END
        FROM (SELECT i, gen_random_uuid() AS id, floor(random() * 100)::int AS s,
                     floor(random() * 10)::int AS w,
                     floor(random() * 20)::int AS flow, floor(random() * 5)::int AS node,
                     timestamptz '2026-01-01 00:00:00+00' + i * interval '2.5 seconds' AS ts
              FROM generate_series(0, ? - 1) AS i) AS generated
        """;
    try (PreparedStatement insert = connection.prepareStatement(sql)) {
      insert.setInt(1, runs);
      insert.executeUpdate();
    }
    // One tree the root, parent and idempotency-key filters find: a root with a key, three
    // children.
    String tree =
        """
        INSERT INTO runs (id, root_run_id, parent_run_id, flow_name, flow_hash, status, input,
                          output, recoverable, orchestrator_id, owner_token, created_at, updated_at,
                          idempotency_key)
        SELECT CASE WHEN i = 0 THEN ? ELSE gen_random_uuid() END, ?,
               CASE WHEN i = 0 THEN NULL ELSE ?::uuid END, 'flow-0', 'hash-0', 'RUNNING', '{}',
               '{}', false, 'node-0', 1, timestamptz '2026-01-01 00:00:00+00' + i * interval '1 second',
               timestamptz '2026-01-01 00:00:00+00' + i * interval '1 second',
               CASE WHEN i = 0 THEN 'order-42' END
        FROM generate_series(0, 3) AS i
        """;
    try (PreparedStatement insert = connection.prepareStatement(tree)) {
      insert.setObject(1, SOME_TREE);
      insert.setObject(2, SOME_TREE);
      insert.setObject(3, SOME_TREE);
      insert.executeUpdate();
    }
    try (Statement statement = connection.createStatement()) {
      statement.execute("VACUUM ANALYZE runs");
    }
  }

  /** The dashboard's filters, by name. */
  static Map<String, RunFilter> filters(int runs) {
    Instant middle = START.plus(SPACING.multipliedBy(runs / 2));
    Map<String, RunFilter> filters = new LinkedHashMap<>();
    filters.put("all runs", RunFilter.all());
    filters.put("status FAILED", RunFilter.builder().status(RunStatus.FAILED).build());
    filters.put(
        "status RUNNING or WAITING",
        RunFilter.builder().status(RunStatus.RUNNING, RunStatus.WAITING).build());
    filters.put("flow", RunFilter.builder().flowName("flow-3").build());
    filters.put(
        "flow and status FAILED",
        RunFilter.builder().flowName("flow-3").status(RunStatus.FAILED).build());
    filters.put("owner node", RunFilter.builder().node("node-2").build());
    filters.put(
        "recoverable-failure",
        RunFilter.builder().status(RunStatus.FAILED).recoverable(true).build());
    filters.put(
        "stuck (owner not live, unchanged for a minute)",
        RunFilter.builder()
            .status(RunStatus.RUNNING)
            .rootsOnly(true)
            .ownerNotIn(Set.of("node-0", "node-1", "node-2", "node-3"))
            .updated(null, START.plus(SPACING.multipliedBy(runs)).minus(Duration.ofMinutes(1)))
            .build());
    for (RunWait.Kind kind : RunWait.Kind.values()) {
      filters.put(
          "waiting for " + kind.name().toLowerCase(Locale.ROOT),
          RunFilter.builder().status(RunStatus.WAITING).waitingFor(kind).build());
    }
    filters.put(
        "flow and waiting for approval",
        RunFilter.builder()
            .flowName("flow-3")
            .status(RunStatus.WAITING)
            .waitingFor(RunWait.Kind.APPROVAL)
            .build());
    filters.put(
        "created in one hour",
        RunFilter.builder().created(middle, middle.plus(Duration.ofHours(1))).build());
    filters.put(
        "updated in one hour",
        RunFilter.builder().updated(middle, middle.plus(Duration.ofHours(1))).build());
    filters.put(
        "input: one customer",
        RunFilter.builder().inputContains(json("{\"customer\": \"c-42\"}")).build());
    filters.put(
        "input: gold tier (1 in 7)",
        RunFilter.builder().inputContains(json("{\"tier\": \"gold\"}")).build());
    filters.put(
        "output: not ok (3 in 10)",
        RunFilter.builder().outputContains(json("{\"ok\": false}")).build());
    filters.put(
        "input path: one customer (==, the containment index serves it)",
        RunFilter.builder().inputPath(JsonPathPredicate.parse("$.customer == \"c-42\"")).build());
    filters.put(
        "output path: not ok (3 in 10)",
        RunFilter.builder().outputPath(JsonPathPredicate.parse("$.ok == false")).build());
    filters.put("root run (its tree)", RunFilter.builder().rootRunId(SOME_TREE).build());
    filters.put("parent run", RunFilter.builder().parentRunId(SOME_TREE).build());
    filters.put("idempotency key", RunFilter.builder().idempotencyKey("order-42").build());
    filters.put(
        "trigger event",
        RunFilter.builder().triggerEvent(new EventRef("shop/orders", "evt-42")).build());
    return filters;
  }

  private static JsonNode json(String text) {
    try {
      return JournalCodec.mapper().readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(text, e);
    }
  }
}

package io.baton.store.postgres.internal;

import io.baton.store.CloudEvent;
import io.baton.store.EventFilter;
import io.baton.store.EventReceipt;
import io.baton.store.StoredEvent;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/**
 * The {@code events} and {@code event_outbox} tables. An event is inserted with {@code ON CONFLICT
 * DO NOTHING} on its {@code (source, id)}, so concurrent receivers of one event store it once; the
 * outbox is drained in one statement that deletes rows taken with {@code FOR UPDATE SKIP LOCKED}
 * and inserts them as events. Thread-safe.
 */
public final class EventRows {
  private static final String COLUMNS =
      "seq, source, id, type, event_time, data::text AS data, received_at, triggered_at,"
          + " traceparent";

  /**
   * A CTE that makes the statement's own transaction commit without waiting for the WAL flush
   * ({@code synchronous_commit} off for this transaction only; a statement must reference {@code
   * async} so that it runs). For the dispatcher's bookkeeping only, where losing the commit in a
   * server crash is safe: a lost mark leaves the event untriggered, and the next sweep triggers it
   * again into the same idempotency keys; a lost drain puts the rows back in the outbox together
   * with their events (one transaction), to be drained and deduplicated again. Any later
   * synchronous commit (a run's append) flushes the WAL through these too. Spares one flush wait
   * per batch, the largest wait of the dispatcher's own writes in a profile (docs/benchmarks.md).
   */
  private static final String ASYNC_COMMIT =
      "WITH async AS (SELECT set_config('synchronous_commit', 'off', true))";

  private final Database database;

  public EventRows(Database database) {
    this.database = database;
  }

  public EventReceipt record(CloudEvent event, Instant receivedAt) {
    return database.inTransaction(
        "record event " + event.source() + "/" + event.id(),
        handle -> {
          Optional<StoredEvent> inserted =
              handle
                  .createQuery(
                      "INSERT INTO events"
                          + " (source, id, type, event_time, data, received_at, traceparent)"
                          + " VALUES (:source, :id, :type, :time, CAST(:data AS jsonb), :at,"
                          + " :traceparent)"
                          + " ON CONFLICT (source, id) DO NOTHING RETURNING "
                          + COLUMNS)
                  .bind("source", event.source())
                  .bind("id", event.id())
                  .bind("type", event.type())
                  .bind("time", Sql.timestamp(event.time()))
                  .bind("data", Sql.json(event.data()))
                  .bind("at", Sql.timestamp(receivedAt))
                  .bind("traceparent", event.traceparent())
                  .map((rs, ctx) -> map(rs))
                  .findOne();
          if (inserted.isPresent()) {
            return new EventReceipt(inserted.get(), false);
          }
          return new EventReceipt(find(handle, event.source(), event.id()).orElseThrow(), true);
        });
  }

  /**
   * A batch in one transaction and two statements: one insert of every event (a conflict on {@code
   * (source, id)} inserts nothing), one read of those that were stored before.
   */
  public List<EventReceipt> recordAll(List<CloudEvent> batch, Instant receivedAt) {
    if (batch.isEmpty()) {
      return List.of();
    }
    return database.inTransaction(
        "record " + batch.size() + " events",
        handle -> {
          Map<Key, StoredEvent> inserted = new HashMap<>();
          for (StoredEvent stored : insertAll(handle, batch, receivedAt)) {
            inserted.put(Key.of(stored.event()), stored);
          }
          Map<Key, StoredEvent> before = new HashMap<>();
          List<CloudEvent> missing =
              batch.stream().filter(event -> !inserted.containsKey(Key.of(event))).toList();
          for (StoredEvent stored : findAll(handle, missing)) {
            before.put(Key.of(stored.event()), stored);
          }
          List<EventReceipt> receipts = new ArrayList<>();
          Set<Key> answered = new HashSet<>();
          for (CloudEvent event : batch) {
            Key key = Key.of(event);
            StoredEvent fresh = inserted.get(key);
            if (fresh != null && answered.add(key)) {
              receipts.add(new EventReceipt(fresh, false));
            } else {
              StoredEvent stored = fresh != null ? fresh : before.get(key);
              if (stored == null) {
                throw new IllegalStateException(
                    "event " + event.source() + "/" + event.id() + " neither stored nor found");
              }
              receipts.add(new EventReceipt(stored, true));
            }
          }
          return receipts;
        });
  }

  private record Key(String source, String id) {
    static Key of(CloudEvent event) {
      return new Key(event.source(), event.id());
    }
  }

  private static List<StoredEvent> insertAll(
      Handle handle, List<CloudEvent> batch, Instant receivedAt) {
    List<String> sources = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    List<String> types = new ArrayList<>();
    List<String> times = new ArrayList<>();
    List<String> data = new ArrayList<>();
    for (CloudEvent event : batch) {
      sources.add(event.source());
      ids.add(event.id());
      types.add(event.type());
      times.add(Sql.iso(event.time()));
      data.add(Sql.json(event.data()));
    }
    return handle
        .createQuery(
            "INSERT INTO events (source, id, type, event_time, data, received_at)"
                + " SELECT source, id, type, event_time, data, CAST(:at AS timestamptz) FROM unnest(CAST(:sources AS"
                + " text[]), CAST(:ids AS text[]), CAST(:types AS text[]), CAST(:times AS"
                + " timestamptz[]), CAST(:data AS jsonb[])) WITH ORDINALITY AS e(source, id,"
                + " type, event_time, data, position) ORDER BY position"
                + " ON CONFLICT (source, id) DO NOTHING RETURNING "
                + COLUMNS)
        .bindArray("sources", String.class, sources)
        .bindArray("ids", String.class, ids)
        .bindArray("types", String.class, types)
        .bindArray("times", String.class, times)
        .bindArray("data", String.class, data)
        .bind("at", Sql.timestamp(receivedAt))
        .map((rs, ctx) -> map(rs))
        .list();
  }

  private static List<StoredEvent> findAll(Handle handle, List<CloudEvent> events) {
    if (events.isEmpty()) {
      return List.of();
    }
    return handle
        .createQuery(
            "SELECT "
                + COLUMNS
                + " FROM events WHERE (source, id) IN (SELECT * FROM unnest(CAST(:sources AS"
                + " text[]), CAST(:ids AS text[])))")
        .bindArray("sources", String.class, events.stream().map(CloudEvent::source).toList())
        .bindArray("ids", String.class, events.stream().map(CloudEvent::id).toList())
        .map((rs, ctx) -> map(rs))
        .list();
  }

  public Optional<StoredEvent> find(long seq) {
    return database.withHandle(
        "find event " + seq,
        handle ->
            handle
                .createQuery("SELECT " + COLUMNS + " FROM events WHERE seq = :seq")
                .bind("seq", seq)
                .map((rs, ctx) -> map(rs))
                .findOne());
  }

  public Optional<StoredEvent> find(String source, String id) {
    return database.withHandle("find event " + source + "/" + id, h -> find(h, source, id));
  }

  private static Optional<StoredEvent> find(Handle handle, String source, String id) {
    return handle
        .createQuery("SELECT " + COLUMNS + " FROM events WHERE source = :source AND id = :id")
        .bind("source", source)
        .bind("id", id)
        .map((rs, ctx) -> map(rs))
        .findOne();
  }

  public List<StoredEvent> find(EventFilter filter, int limit) {
    return database.withHandle(
        "find events",
        handle ->
            bind(
                    handle.createQuery(
                        "SELECT "
                            + COLUMNS
                            + " FROM events"
                            + where(filter)
                            + " ORDER BY seq LIMIT :limit"),
                    filter)
                .bind("limit", limit)
                .map((rs, ctx) -> map(rs))
                .list());
  }

  public long count(EventFilter filter) {
    return database.withHandle(
        "count events",
        handle ->
            bind(handle.createQuery("SELECT count(*) FROM events" + where(filter)), filter)
                .mapTo(Long.class)
                .one());
  }

  private static String where(EventFilter filter) {
    List<String> conditions = new ArrayList<>();
    if (!filter.types().isEmpty()) {
      conditions.add("(type = ANY(:exact) OR type LIKE ANY(:prefixes))");
    }
    if (filter.receivedFrom() != null) {
      conditions.add("received_at >= :from");
    }
    if (filter.receivedBefore() != null) {
      conditions.add("received_at < :before");
    }
    if (!filter.ids().isEmpty()) {
      conditions.add("id = ANY(:ids)");
    }
    return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
  }

  private static Query bind(Query query, EventFilter filter) {
    if (!filter.types().isEmpty()) {
      List<String> exact = new ArrayList<>();
      List<String> prefixes = new ArrayList<>();
      for (String type : filter.types()) {
        if (type.endsWith("*")) {
          prefixes.add(likeEscaped(type.substring(0, type.length() - 1)) + "%");
        } else {
          exact.add(type);
        }
      }
      query.bindArray("exact", String.class, exact).bindArray("prefixes", String.class, prefixes);
    }
    if (filter.receivedFrom() != null) {
      query.bind("from", Sql.timestamp(filter.receivedFrom()));
    }
    if (filter.receivedBefore() != null) {
      query.bind("before", Sql.timestamp(filter.receivedBefore()));
    }
    if (!filter.ids().isEmpty()) {
      query.bindArray("ids", String.class, filter.ids());
    }
    return query;
  }

  private static String likeEscaped(String text) {
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
  }

  public List<StoredEvent> untriggered(Instant receivedBy, int limit) {
    return database.withHandle(
        "find untriggered events",
        handle ->
            handle
                .createQuery(
                    "SELECT "
                        + COLUMNS
                        + " FROM events WHERE triggered_at IS NULL AND received_at <= :by"
                        + " ORDER BY seq LIMIT :limit")
                .bind("by", Sql.timestamp(receivedBy))
                .bind("limit", limit)
                .map((rs, ctx) -> map(rs))
                .list());
  }

  public void markTriggered(Collection<Long> seqs, Instant at) {
    if (seqs.isEmpty()) {
      return;
    }
    database.withHandle(
        "mark " + seqs.size() + " events triggered",
        handle ->
            handle
                .createUpdate(
                    ASYNC_COMMIT
                        + " UPDATE events SET triggered_at = :at FROM async"
                        + " WHERE seq = ANY(:seqs) AND triggered_at IS NULL")
                .bind("at", Sql.timestamp(at))
                .bindArray("seqs", Long.class, seqs)
                .execute());
  }

  public void addToOutbox(List<CloudEvent> events, Instant at) {
    if (events.isEmpty()) {
      return;
    }
    database.inTransaction(
        "put " + events.size() + " events in the outbox",
        handle -> {
          var batch =
              handle.prepareBatch(
                  "INSERT INTO event_outbox"
                      + " (source, id, type, event_time, data, created_at, traceparent)"
                      + " VALUES (:source, :id, :type, :time, CAST(:data AS jsonb), :at,"
                      + " :traceparent)");
          for (CloudEvent event : events) {
            batch
                .bind("source", event.source())
                .bind("id", event.id())
                .bind("type", event.type())
                .bind("time", Sql.timestamp(event.time()))
                .bind("data", Sql.json(event.data()))
                .bind("at", Sql.timestamp(at))
                .bind("traceparent", event.traceparent())
                .add();
          }
          return batch.execute();
        });
  }

  public List<StoredEvent> drainOutbox(int limit, Instant receivedAt) {
    return database.inTransaction(
        "drain the event outbox",
        handle ->
            handle
                .createQuery(
                    ASYNC_COMMIT
                        + ", taken AS (DELETE FROM event_outbox WHERE seq IN (SELECT seq FROM"
                        + " event_outbox ORDER BY seq LIMIT :limit FOR UPDATE SKIP LOCKED)"
                        + " AND EXISTS (SELECT FROM async)"
                        + " RETURNING seq, source, id, type, event_time, data, traceparent),"
                        + " stored AS (INSERT INTO events"
                        + " (source, id, type, event_time, data, received_at, traceparent)"
                        + " SELECT source, id, type, event_time, data, :at, traceparent"
                        + " FROM taken ORDER BY seq"
                        + " ON CONFLICT (source, id) DO NOTHING RETURNING "
                        + COLUMNS
                        + ") SELECT * FROM stored ORDER BY seq")
                .bind("limit", limit)
                .bind("at", Sql.timestamp(receivedAt))
                .map((rs, ctx) -> map(rs))
                .list());
  }

  public long outboxSize() {
    return database.withHandle(
        "count the event outbox",
        handle -> handle.createQuery("SELECT count(*) FROM event_outbox").mapTo(Long.class).one());
  }

  public int deleteTriggeredBefore(Instant cutoff) {
    return database.withHandle(
        "delete old events",
        handle ->
            handle
                .createUpdate(
                    "DELETE FROM events WHERE triggered_at IS NOT NULL AND received_at < :cutoff")
                .bind("cutoff", Sql.timestamp(cutoff))
                .execute());
  }

  private static StoredEvent map(ResultSet rs) throws SQLException {
    return new StoredEvent(
        rs.getLong("seq"),
        new CloudEvent(
            rs.getString("id"),
            rs.getString("source"),
            rs.getString("type"),
            Sql.instant(rs, "event_time"),
            Sql.json(rs.getString("data")),
            rs.getString("traceparent")),
        Sql.instant(rs, "received_at"),
        Sql.instant(rs, "triggered_at"));
  }
}

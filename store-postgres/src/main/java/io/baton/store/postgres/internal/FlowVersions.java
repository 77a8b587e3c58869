package io.baton.store.postgres.internal;

import io.baton.store.FlowRecord;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/** The {@code flows} table: versions of named flows, newest by order of saving. Thread-safe. */
public final class FlowVersions {
  private final Database database;

  public FlowVersions(Database database) {
    this.database = database;
  }

  /** Records a version; saving the same name and hash again does nothing. */
  public void save(FlowRecord flow) {
    database.withHandle(
        "save flow " + flow.name(),
        handle ->
            handle
                .createUpdate(
                    "INSERT INTO flows (name, hash, created_at) VALUES (:name, :hash, :createdAt)"
                        + " ON CONFLICT (name, hash) DO NOTHING")
                .bind("name", flow.name())
                .bind("hash", flow.hash())
                .bind("createdAt", Sql.timestamp(flow.createdAt()))
                .execute());
  }

  /** The newest version of every flow, by name. */
  public List<FlowRecord> latestOfEach() {
    return database.withHandle(
        "list flows",
        handle ->
            handle
                .createQuery(
                    "SELECT DISTINCT ON (name) name, hash, created_at FROM flows"
                        + " ORDER BY name, seq DESC")
                .mapTo(FlowRecord.class)
                .list());
  }

  /** Up to {@code limit} versions of the named flow, newest first. */
  public List<FlowRecord> versions(String name, int limit) {
    return database.withHandle(
        "read versions of flow " + name,
        handle ->
            handle
                .createQuery(
                    "SELECT name, hash, created_at FROM flows WHERE name = :name"
                        + " ORDER BY seq DESC LIMIT :limit")
                .bind("name", name)
                .bind("limit", limit)
                .mapTo(FlowRecord.class)
                .list());
  }

  /** A row of {@code flows}; registered as the mapper of {@link FlowRecord}. */
  static FlowRecord map(ResultSet rs) throws SQLException {
    return new FlowRecord(
        rs.getString("name"), rs.getString("hash"), Sql.instant(rs, "created_at"));
  }
}

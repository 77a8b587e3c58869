package io.baton.store.postgres.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.ErrorInfo;
import io.baton.journal.JournalCodec;
import io.baton.journal.RunStatus;
import io.baton.journal.RunWait;
import io.baton.store.EventRef;
import io.baton.store.RunRecord;
import java.sql.ResultSet;
import java.sql.SQLException;

/** The {@code runs} columns and their mapping to {@link RunRecord}. */
public final class RunRows {
  /** Every column but the two JSON documents, which the append path never needs to read. */
  public static final String SCALAR_COLUMNS =
      "id, root_run_id, parent_run_id, parent_step, flow_name, flow_hash, status, status_reason,"
          + " error_code, error_message, recoverable, orchestrator_id, owner_token, latest_seq,"
          + " wake_at, idempotency_key, created_at, updated_at, waiting::text AS waiting,"
          + " trigger_source, trigger_id";

  /** Every column of a {@link RunRecord}. */
  public static final String ALL_COLUMNS =
      SCALAR_COLUMNS + ", input::text AS input, output::text AS output";

  private RunRows() {}

  /** A row selected with {@link #ALL_COLUMNS}; registered as the mapper of {@link RunRecord}. */
  static RunRecord map(ResultSet rs) throws SQLException {
    return map(rs, Sql.json(rs.getString("input")), Sql.json(rs.getString("output")));
  }

  /** A row selected with {@link #SCALAR_COLUMNS}, with the JSON documents supplied. */
  public static RunRecord map(ResultSet rs, JsonNode input, JsonNode output) throws SQLException {
    String errorCode = rs.getString("error_code");
    return new RunRecord(
        Sql.uuid(rs, "id"),
        Sql.uuid(rs, "root_run_id"),
        Sql.uuid(rs, "parent_run_id"),
        rs.getString("parent_step"),
        rs.getString("flow_name"),
        rs.getString("flow_hash"),
        RunStatus.valueOf(rs.getString("status")),
        rs.getString("status_reason"),
        input,
        output,
        errorCode == null ? null : new ErrorInfo(errorCode, rs.getString("error_message")),
        rs.getBoolean("recoverable"),
        rs.getString("orchestrator_id"),
        rs.getLong("owner_token"),
        Sql.instant(rs, "wake_at"),
        rs.getString("idempotency_key"),
        Sql.instant(rs, "created_at"),
        Sql.instant(rs, "updated_at"),
        waiting(rs.getString("waiting")),
        triggerEvent(rs.getString("trigger_source"), rs.getString("trigger_id")));
  }

  private static EventRef triggerEvent(String source, String id) {
    return source == null || id == null ? null : new EventRef(source, id);
  }

  private static RunWait waiting(String json) {
    if (json == null) {
      return null;
    }
    try {
      return JournalCodec.mapper().readValue(json, RunWait.class);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a run's waiting column holds no wait: " + json, e);
    }
  }

  /** The {@code waiting} column's JSON for a wait, or null. */
  static String waitingJson(RunWait waiting) {
    if (waiting == null) {
      return null;
    }
    try {
      return JournalCodec.mapper().writeValueAsString(waiting);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a wait that does not encode: " + waiting, e);
    }
  }
}

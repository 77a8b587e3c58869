package io.baton.store.postgres.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.JournalCodec;
import java.io.UncheckedIOException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.UUID;

/** Conversions between Java values and PostgreSQL columns, in one place. */
public final class Sql {
  private Sql() {}

  /** An instant as the driver binds it to timestamptz, independent of any time zone. */
  public static OffsetDateTime timestamp(Instant instant) {
    return instant == null ? null : micros(instant).atOffset(ZoneOffset.UTC);
  }

  /**
   * The instant as timestamptz keeps it. PostgreSQL would round nanoseconds to the nearest
   * microsecond; Baton's records truncate, so values are truncated before they are sent.
   */
  public static Instant micros(Instant instant) {
    return instant.truncatedTo(ChronoUnit.MICROS);
  }

  /** The instant in a timestamptz column, or null. */
  public static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  public static UUID uuid(ResultSet rs, String column) throws SQLException {
    return rs.getObject(column, UUID.class);
  }

  /** JSON text for a jsonb column (JSON null for a missing value). */
  public static String json(JsonNode node) {
    try {
      return JournalCodec.mapper().writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("cannot encode JSON", e);
    }
  }

  /** The JSON in a jsonb column read as text. */
  public static JsonNode json(String text) {
    if (text == null) {
      return null;
    }
    try {
      return JournalCodec.mapper().readTree(text);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("malformed JSON stored in PostgreSQL", e);
    }
  }

  public static Array uuids(Connection connection, Collection<UUID> ids) throws SQLException {
    return connection.createArrayOf("uuid", ids.toArray(new UUID[0]));
  }

  public static Array texts(Connection connection, Collection<String> values) throws SQLException {
    return connection.createArrayOf("text", values.toArray(new String[0]));
  }

  /** An ISO-8601 instant, the text form timestamptz arrays accept. */
  public static String iso(Instant instant) {
    return instant == null ? null : micros(instant).toString();
  }
}

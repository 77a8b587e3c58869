package io.baton.store.postgres.internal;

import io.baton.store.FlowRecord;
import io.baton.store.RunRecord;
import io.baton.store.Signal;
import org.jdbi.v3.core.Jdbi;

/**
 * The row mappers of the records the stores read, registered once on the {@link Jdbi} every call
 * goes through: a query says {@code mapTo(RunRecord.class)}, and each mapping lives beside the SQL
 * of its table ({@link RunRows}, {@link FlowVersions}, {@link RunSignals}).
 */
final class RecordMappers {
  private RecordMappers() {}

  static Jdbi registerOn(Jdbi jdbi) {
    return jdbi.registerRowMapper(RunRecord.class, (rs, ctx) -> RunRows.map(rs))
        .registerRowMapper(FlowRecord.class, (rs, ctx) -> FlowVersions.map(rs))
        .registerRowMapper(Signal.class, (rs, ctx) -> RunSignals.map(rs));
  }
}

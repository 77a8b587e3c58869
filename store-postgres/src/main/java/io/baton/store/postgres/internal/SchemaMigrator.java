package io.baton.store.postgres.internal;

import io.baton.store.postgres.SchemaMigration;
import io.baton.store.postgres.SchemaVersionException;
import java.util.Arrays;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the schema to the version this code knows, with Flyway, or checks that it is there. A
 * database whose schema is newer than the code is refused: Flyway by default ignores "future"
 * migrations, which would let an old node write to a schema it does not understand.
 */
public final class SchemaMigrator {
  private static final Logger log = LoggerFactory.getLogger(SchemaMigrator.class);

  public static final String LOCATION = "classpath:db/migration/postgresql";
  public static final String HISTORY_TABLE = "baton_schema_history";

  private final Flyway flyway;

  public SchemaMigrator(DataSource dataSource) {
    this.flyway =
        Flyway.configure()
            .dataSource(dataSource)
            .locations(LOCATION)
            .table(HISTORY_TABLE)
            .cleanDisabled(true)
            .load();
  }

  /**
   * Applies pending migrations (when {@code migrate}) and verifies the result is current.
   * Idempotent: a current schema is only validated.
   */
  public SchemaMigration prepare(boolean migrate) {
    MigrationInfoService info = flyway.info();
    String database = databaseVersion(info);
    String code = codeVersion(info);
    if (isNewer(info)) {
      throw new SchemaVersionException(
          "the database schema is at version "
              + database
              + ", newer than version "
              + code
              + " that this Baton knows; upgrade Baton before pointing it at this database",
          database,
          code);
    }
    if (info.pending().length == 0) {
      flyway.validate();
      return new SchemaMigration(database, code, 0);
    }
    if (!migrate) {
      throw new SchemaVersionException(
          "the database schema is at version "
              + database
              + " but this Baton needs version "
              + code
              + "; enable migrate or run the migrations first",
          database,
          code);
    }
    int applied = flyway.migrate().migrationsExecuted;
    log.info(
        "migrated the Baton schema from version {} to {} ({} migrations)", database, code, applied);
    return new SchemaMigration(database, code, applied);
  }

  private static boolean isNewer(MigrationInfoService info) {
    MigrationInfo current = info.current();
    if (current == null || current.getVersion() == null) {
      return false;
    }
    return current.getVersion().compareTo(latestKnown(info)) > 0;
  }

  private static MigrationVersion latestKnown(MigrationInfoService info) {
    return Arrays.stream(info.all())
        .filter(m -> m.getState().isResolved() && m.getVersion() != null)
        .map(MigrationInfo::getVersion)
        .max(MigrationVersion::compareTo)
        .orElse(MigrationVersion.EMPTY);
  }

  private static String databaseVersion(MigrationInfoService info) {
    MigrationInfo current = info.current();
    return current == null || current.getVersion() == null
        ? "none"
        : current.getVersion().getVersion();
  }

  @SuppressWarnings("ReferenceEquality") // EMPTY is latestKnown's own answer for "none"
  private static String codeVersion(MigrationInfoService info) {
    MigrationVersion latest = latestKnown(info);
    return latest == MigrationVersion.EMPTY ? "none" : latest.getVersion();
  }
}

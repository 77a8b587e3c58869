package io.baton.node;

import io.baton.node.config.ConfigException;
import io.baton.node.config.ConfigKeys;
import io.baton.node.config.ConfigLoader;
import io.baton.node.config.NodeConfig;
import io.baton.node.config.StoreBackend;
import io.baton.store.postgres.PostgresStores;
import io.baton.store.postgres.SchemaMigration;
import io.baton.store.postgres.SchemaVersionException;
import java.io.PrintStream;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code baton migrate}: brings the PostgreSQL schema to this Baton's version and exits, the step a
 * deployment runs once per release (the Helm chart's pre-install/pre-upgrade Job) so that nodes
 * start with {@code store.migrate: false}. Idempotent: a current schema exits 0 and changes
 * nothing. Exit codes: 0 current, 1 failed (PostgreSQL did not answer within {@code
 * store.retryWindow}, or a migration failed: Flyway rolls its transaction back), 2 bad
 * configuration, 7 the schema is newer than this Baton (refused, nothing changed).
 */
final class MigrateProcess {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int SCHEMA_NEWER = 7;
  private static final Pattern DOT = Pattern.compile("\\.");

  private MigrateProcess() {}

  static int run(NodeOptions options, PrintStream out, PrintStream err) {
    NodeConfig config;
    try {
      config =
          NodeConfig.from(
              // migrate serves no API: it needs no keys file (the mode's preset; a file or the
              // environment still wins, and a keys mode without a file is refused as for a node)
              ConfigLoader.load(
                  options.config,
                  System.getenv(),
                  options.flags(),
                  Map.of(ConfigKeys.AUTH_MODE.name(), "none")));
    } catch (ConfigException e) {
      err.println("baton: " + e.getMessage());
      return ServerProcess.CONFIG_ERROR;
    }
    if (config.store().type() != StoreBackend.POSTGRES) {
      err.println(
          "baton: migrate needs "
              + ConfigKeys.STORE_TYPE.name()
              + " postgres, not "
              + config.store().type().configName());
      return ServerProcess.CONFIG_ERROR;
    }
    Logging.configure(config.loggingFormat());
    try {
      SchemaMigration migration = PostgresStores.migrate(Backends.postgres(config.store()));
      out.println(
          migration.applied() == 0
              ? "schema is current at version " + migration.toVersion()
              : "migrated the schema from version "
                  + migration.fromVersion()
                  + " to "
                  + migration.toVersion()
                  + " ("
                  + migration.applied()
                  + " migrations)");
      return OK;
    } catch (SchemaVersionException newer) {
      err.println("baton: " + newer.getMessage());
      return isNewer(newer.databaseVersion(), newer.codeVersion()) ? SCHEMA_NEWER : FAILED;
    } catch (RuntimeException failure) {
      err.println("baton: migration failed: " + failure);
      return FAILED;
    }
  }

  /** Flyway versions such as {@code 12} or {@code 2.1}, compared part by part; "none" is oldest. */
  static boolean isNewer(String version, String than) {
    if (version.equals("none") || than.equals("none")) {
      return !version.equals("none");
    }
    String[] left = DOT.split(version, -1);
    String[] right = DOT.split(than, -1);
    for (int i = 0; i < Math.max(left.length, right.length); i++) {
      long l = i < left.length ? Long.parseLong(left[i]) : 0;
      long r = i < right.length ? Long.parseLong(right[i]) : 0;
      if (l != r) {
        return l > r;
      }
    }
    return false;
  }
}

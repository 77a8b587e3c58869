package io.baton.store.postgres;

import io.baton.store.StoreUnavailableException;
import io.baton.store.Stores;
import io.baton.store.postgres.internal.Database;
import io.baton.store.postgres.internal.SchemaMigrator;
import java.time.Clock;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the journal, metadata, blob, event and access stores on one PostgreSQL database. The
 * schema is migrated (or checked) first; a database whose schema is newer than this code is refused
 * with {@link SchemaVersionException}. The returned {@link Stores} owns the connection pool:
 * closing it closes the pool.
 */
public final class PostgresStores {
  private static final Logger log = LoggerFactory.getLogger(PostgresStores.class);

  private PostgresStores() {}

  /**
   * Migrates the schema to the version this code knows and returns; the step that a deployment runs
   * once per release ({@code baton migrate}) so that nodes can start with {@code migrate} off.
   * Idempotent; waits for PostgreSQL up to the configured retry window.
   *
   * @throws SchemaVersionException the schema is newer than this code: nothing is changed
   * @throws io.baton.store.StoreUnavailableException PostgreSQL did not answer within the window
   */
  public static SchemaMigration migrate(PostgresStoreConfig config) {
    try (Database database = Database.open(config)) {
      SchemaMigrator migrator = new SchemaMigrator(Database.unpooled(config));
      return database.retry().call("migrate the schema", () -> migrator.prepare(true));
    }
  }

  /**
   * Opens the stores; waits for PostgreSQL up to the configured retry window.
   *
   * @param clock the time of records the stores stamp themselves (blobs)
   * @throws SchemaVersionException the schema is newer, or older while {@code migrate} is off
   * @throws io.baton.store.StoreUnavailableException PostgreSQL did not answer within the window
   */
  public static Stores create(PostgresStoreConfig config, Clock clock) {
    Database database = Database.open(config);
    try {
      SchemaMigrator migrator = new SchemaMigrator(Database.unpooled(config));
      database
          .retry()
          .call(
              "prepare the schema",
              () -> {
                migrator.prepare(config.migrate());
                return null;
              });
      log.info("{}: stores ready", where(config));
      return new Stores(
          new PostgresJournal(database),
          new PostgresMetadataStore(database),
          new PostgresBlobStore(database, clock, config.maxBlobBytes()),
          new PostgresEventStore(database),
          new PostgresAccessStore(database),
          database);
    } catch (StoreUnavailableException unavailable) {
      database.close();
      throw new StoreUnavailableException(
          where(config) + ": " + unavailable.getMessage() + tlsHint(unavailable, config),
          unavailable);
    } catch (RuntimeException failure) {
      database.close();
      throw failure;
    }
  }

  /** Which connection: the URL without its parameters (which may name key files). */
  private static String where(PostgresStoreConfig config) {
    String url = config.url();
    int query = url.indexOf('?');
    return "PostgreSQL at " + (query < 0 ? url : url.substring(0, query));
  }

  /** Why, when the TLS handshake failed: the server's certificate did not verify. */
  private static String tlsHint(Throwable failure, PostgresStoreConfig config) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SSLException) {
        return " (TLS with sslmode="
            + config.sslMode()
            + ": the server's certificate is not signed by the CA in sslrootcert, or does not"
            + " name the host)";
      }
    }
    return "";
  }
}

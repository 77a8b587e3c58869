package io.baton.store.postgres.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.baton.store.StoreUnavailableException;
import io.baton.store.postgres.PostgresStoreConfig;
import java.time.Duration;
import javax.sql.DataSource;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The connection pool, Jdbi on top of it, and the transient-failure retry around every call. Each
 * {@link #inTransaction} attempt is a fresh transaction on a connection from the pool, so a retry
 * after a lost connection starts clean. Thread-safe; {@link #close()} is idempotent.
 */
public final class Database implements AutoCloseable {
  public static final String POOL_NAME = "baton-postgres";

  /**
   * Every statement is planned for the values and table sizes of its execution. A cached generic
   * plan is made for the table sizes of a statement's first executions: on a young, small {@code
   * runs} or {@code journal} table that is a sequential scan, even for a primary-key lookup, and it
   * stays the plan while the table grows to millions of rows (until an ANALYZE happens to
   * invalidate it; never where autovacuum is off). Planning each time costs tens of microseconds,
   * spread over a whole batch on the hot path; a plan that does not fit the table costs without
   * bound.
   */
  static final String PLAN_CACHE_MODE = "force_custom_plan";

  private final HikariDataSource dataSource;
  private final Jdbi jdbi;
  private final TransientRetry retry;

  private Database(HikariDataSource dataSource, TransientRetry retry) {
    this.dataSource = dataSource;
    this.jdbi = RecordMappers.registerOn(Jdbi.create(dataSource));
    this.retry = retry;
  }

  /** Opens the pool lazily: no connection is made until the first call. */
  public static Database open(PostgresStoreConfig config) {
    HikariConfig pool = new HikariConfig();
    pool.setPoolName(POOL_NAME);
    pool.setJdbcUrl(config.url());
    pool.setUsername(config.user());
    pool.setPassword(config.password());
    pool.setMaximumPoolSize(config.maxPoolSize());
    pool.setConnectionTimeout(config.connectionTimeout().toMillis());
    // The retry window, not pool construction, decides how long to wait for the server.
    pool.setInitializationFailTimeout(-1);
    if (config.poolMetrics() != null) {
      pool.setMetricRegistry(config.poolMetrics());
    }
    pool.addDataSourceProperty("sslmode", config.sslMode());
    pool.addDataSourceProperty("reWriteBatchedInserts", "true");
    pool.addDataSourceProperty("ApplicationName", "baton");
    pool.addDataSourceProperty("tcpKeepAlive", "true");
    pool.addDataSourceProperty("connectTimeout", seconds(config.connectionTimeout()));
    pool.addDataSourceProperty("socketTimeout", seconds(config.socketTimeout()));
    pool.addDataSourceProperty("options", "-c plan_cache_mode=" + PLAN_CACHE_MODE);
    TransientRetry retry =
        new TransientRetry(
            config.transientRetryWindow(), config.initialRetryBackoff(), config.maxRetryBackoff());
    return new Database(new HikariDataSource(pool), retry);
  }

  /**
   * A data source without a pool, for schema migrations: Flyway holds one connection for its lock
   * while it works on another, which a pool of one connection could never give it.
   */
  public static DataSource unpooled(PostgresStoreConfig config) {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    // The URL is set last so that its parameters win over the configured ones, as in the pool.
    dataSource.setSslMode(config.sslMode());
    dataSource.setApplicationName("baton-migration");
    dataSource.setConnectTimeout(Integer.parseInt(seconds(config.connectionTimeout())));
    dataSource.setSocketTimeout(Integer.parseInt(seconds(config.socketTimeout())));
    dataSource.setUser(config.user());
    dataSource.setPassword(config.password());
    dataSource.setURL(config.url());
    return dataSource;
  }

  /** The driver takes whole seconds; round up so that a short timeout never becomes "none". */
  private static String seconds(Duration duration) {
    if (duration.isZero()) {
      return "0";
    }
    if (duration.getSeconds() >= Integer.MAX_VALUE) {
      return String.valueOf(Integer.MAX_VALUE);
    }
    return String.valueOf(duration.getSeconds() + (duration.getNano() > 0 ? 1 : 0));
  }

  /** Runs {@code work} in one transaction, retried as a whole after transient failures. */
  public <T> T inTransaction(String action, HandleCallback<T, Exception> work) {
    return retry.call(action, () -> jdbi.inTransaction(work));
  }

  /** Runs {@code work} on one connection in auto-commit mode, retried after transient failures. */
  public <T> T withHandle(String action, HandleCallback<T, Exception> work) {
    return retry.call(action, () -> jdbi.withHandle(work));
  }

  /**
   * Runs {@code work} once; any failure to reach the server is {@link StoreUnavailableException}.
   */
  public <T> T once(String action, HandleCallback<T, Exception> work) {
    try {
      return jdbi.withHandle(work);
    } catch (Exception failure) {
      throw new StoreUnavailableException(
          "PostgreSQL did not answer to " + action + ": " + TransientRetry.rootMessage(failure),
          failure);
    }
  }

  public TransientRetry retry() {
    return retry;
  }

  @Override
  public void close() {
    dataSource.close();
  }
}

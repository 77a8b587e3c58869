package io.baton.store.postgres;

import io.baton.store.BlobStore;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Set;

/**
 * How to reach PostgreSQL and how patiently to wait for it. Every field is validated where it is
 * set, with a message that names its configuration key. Immutable and thread-safe; {@link
 * #toString()} never shows the password.
 *
 * @param url the JDBC URL, {@code jdbc:postgresql://host:port/database}
 * @param maxPoolSize the most connections the store opens
 * @param connectionTimeout how long one attempt waits for a connection (from the pool or a new one)
 * @param socketTimeout how long one network read may block before the connection counts as lost
 * @param sslMode the driver's SSL mode: disable, allow, prefer, require, verify-ca, verify-full
 * @param migrate whether to apply pending schema migrations on start (otherwise the schema must be
 *     current already)
 * @param transientRetryWindow how long a call keeps retrying transient failures (connection lost,
 *     serialization failure, deadlock, server restarting) before it gives up with {@code
 *     StoreUnavailableException}; {@link #RETRY_FOREVER} never gives up
 * @param initialRetryBackoff the first pause between retries, doubled up to {@code maxRetryBackoff}
 * @param maxBlobBytes the largest blob the blob store accepts
 * @param poolMetrics a Dropwizard {@code MetricRegistry} that HikariCP reports the connection pool
 *     to (active, idle, pending connections, wait time), or null for none; an {@code Object} as in
 *     HikariCP's own API, so this module needs no metrics library
 */
public record PostgresStoreConfig(
    String url,
    String user,
    String password,
    int maxPoolSize,
    Duration connectionTimeout,
    Duration socketTimeout,
    String sslMode,
    boolean migrate,
    Duration transientRetryWindow,
    Duration initialRetryBackoff,
    Duration maxRetryBackoff,
    int maxBlobBytes,
    Object poolMetrics) {

  public static final String DEFAULT_USER = "postgres";
  public static final int DEFAULT_MAX_POOL_SIZE = 10;
  public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofSeconds(60);
  public static final String DEFAULT_SSL_MODE = "prefer";
  public static final boolean DEFAULT_MIGRATE = true;
  public static final Duration DEFAULT_TRANSIENT_RETRY_WINDOW = Duration.ofMinutes(5);
  public static final Duration DEFAULT_INITIAL_RETRY_BACKOFF = Duration.ofMillis(50);
  public static final Duration DEFAULT_MAX_RETRY_BACKOFF = Duration.ofSeconds(2);
  public static final int DEFAULT_MAX_BLOB_BYTES = BlobStore.DEFAULT_MAX_BLOB_BYTES;

  /** A retry window that never closes: the store waits for PostgreSQL as long as it takes. */
  public static final Duration RETRY_FOREVER = ChronoUnit.FOREVER.getDuration();

  /** The sslmode values the PostgreSQL driver accepts. */
  public static final Set<String> SSL_MODES =
      Set.of("disable", "allow", "prefer", "require", "verify-ca", "verify-full");

  /** PostgreSQL stores at most 1 GB in one bytea value. */
  static final int LARGEST_BLOB_BYTES = 1 << 30;

  /** HikariCP refuses to wait less than this for a connection. */
  static final Duration SHORTEST_CONNECTION_TIMEOUT = Duration.ofMillis(250);

  public PostgresStoreConfig {
    require(
        url != null && url.startsWith("jdbc:postgresql:"), "url", "a jdbc:postgresql: URL", url);
    require(user != null && !user.isBlank(), "user", "a user name", user);
    password = password == null ? "" : password;
    require(maxPoolSize >= 1, "maxPoolSize", "at least 1", maxPoolSize);
    require(
        connectionTimeout != null && connectionTimeout.compareTo(SHORTEST_CONNECTION_TIMEOUT) >= 0,
        "connectionTimeout",
        "at least 250ms",
        connectionTimeout);
    require(
        socketTimeout != null && !socketTimeout.isNegative(),
        "socketTimeout",
        "zero (none) or positive",
        socketTimeout);
    require(
        sslMode != null && SSL_MODES.contains(sslMode), "sslMode", "one of " + SSL_MODES, sslMode);
    require(
        transientRetryWindow != null && !transientRetryWindow.isNegative(),
        "transientRetryWindow",
        "zero (no retries) or positive",
        transientRetryWindow);
    require(
        initialRetryBackoff != null && initialRetryBackoff.toMillis() >= 1,
        "initialRetryBackoff",
        "at least 1ms",
        initialRetryBackoff);
    require(
        maxRetryBackoff != null && maxRetryBackoff.compareTo(initialRetryBackoff) >= 0,
        "maxRetryBackoff",
        "at least initialRetryBackoff (" + initialRetryBackoff + ")",
        maxRetryBackoff);
    require(
        maxBlobBytes >= 0 && maxBlobBytes <= LARGEST_BLOB_BYTES,
        "maxBlobBytes",
        "between 0 and " + LARGEST_BLOB_BYTES,
        maxBlobBytes);
  }

  private static void require(boolean valid, String key, String expected, Object actual) {
    if (!valid) {
      throw new IllegalArgumentException(
          "store-postgres configuration: " + key + " must be " + expected + ", got " + actual);
    }
  }

  /** A builder with every default set; only the URL is required. */
  public static Builder builder(String url) {
    return new Builder(url);
  }

  /** A builder that starts from this configuration. */
  public Builder toBuilder() {
    return new Builder(url)
        .user(user)
        .password(password)
        .maxPoolSize(maxPoolSize)
        .connectionTimeout(connectionTimeout)
        .socketTimeout(socketTimeout)
        .sslMode(sslMode)
        .migrate(migrate)
        .transientRetryWindow(transientRetryWindow)
        .retryBackoff(initialRetryBackoff, maxRetryBackoff)
        .maxBlobBytes(maxBlobBytes)
        .poolMetrics(poolMetrics);
  }

  @Override
  public String toString() {
    return "PostgresStoreConfig[url="
        + url
        + ", user="
        + user
        + ", password="
        + (password.isEmpty() ? "(none)" : "(hidden)")
        + ", maxPoolSize="
        + maxPoolSize
        + ", connectionTimeout="
        + connectionTimeout
        + ", socketTimeout="
        + socketTimeout
        + ", sslMode="
        + sslMode
        + ", migrate="
        + migrate
        + ", transientRetryWindow="
        + (transientRetryWindow.equals(RETRY_FOREVER) ? "forever" : transientRetryWindow)
        + ", retryBackoff="
        + initialRetryBackoff
        + ".."
        + maxRetryBackoff
        + ", maxBlobBytes="
        + maxBlobBytes
        + "]";
  }

  /** Collects settings; {@link #build()} validates them. Not thread-safe. */
  public static final class Builder {
    private final String url;
    private String user = DEFAULT_USER;
    private String password = "";
    private int maxPoolSize = DEFAULT_MAX_POOL_SIZE;
    private Duration connectionTimeout = DEFAULT_CONNECTION_TIMEOUT;
    private Duration socketTimeout = DEFAULT_SOCKET_TIMEOUT;
    private String sslMode = DEFAULT_SSL_MODE;
    private boolean migrate = DEFAULT_MIGRATE;
    private Duration transientRetryWindow = DEFAULT_TRANSIENT_RETRY_WINDOW;
    private Duration initialRetryBackoff = DEFAULT_INITIAL_RETRY_BACKOFF;
    private Duration maxRetryBackoff = DEFAULT_MAX_RETRY_BACKOFF;
    private int maxBlobBytes = DEFAULT_MAX_BLOB_BYTES;
    private Object poolMetrics;

    private Builder(String url) {
      this.url = url;
    }

    public Builder user(String user) {
      this.user = user;
      return this;
    }

    public Builder password(String password) {
      this.password = password;
      return this;
    }

    public Builder maxPoolSize(int maxPoolSize) {
      this.maxPoolSize = maxPoolSize;
      return this;
    }

    public Builder connectionTimeout(Duration connectionTimeout) {
      this.connectionTimeout = connectionTimeout;
      return this;
    }

    public Builder socketTimeout(Duration socketTimeout) {
      this.socketTimeout = socketTimeout;
      return this;
    }

    public Builder sslMode(String sslMode) {
      this.sslMode = sslMode;
      return this;
    }

    public Builder migrate(boolean migrate) {
      this.migrate = migrate;
      return this;
    }

    public Builder transientRetryWindow(Duration transientRetryWindow) {
      this.transientRetryWindow = transientRetryWindow;
      return this;
    }

    public Builder retryBackoff(Duration initial, Duration max) {
      this.initialRetryBackoff = initial;
      this.maxRetryBackoff = max;
      return this;
    }

    public Builder maxBlobBytes(int maxBlobBytes) {
      this.maxBlobBytes = maxBlobBytes;
      return this;
    }

    /** A Dropwizard {@code MetricRegistry} for the pool's metrics; null for none. */
    public Builder poolMetrics(Object poolMetrics) {
      this.poolMetrics = poolMetrics;
      return this;
    }

    public PostgresStoreConfig build() {
      return new PostgresStoreConfig(
          url,
          user,
          password,
          maxPoolSize,
          connectionTimeout,
          socketTimeout,
          sslMode,
          migrate,
          transientRetryWindow,
          initialRetryBackoff,
          maxRetryBackoff,
          maxBlobBytes,
          poolMetrics);
    }
  }
}

package io.baton.node.config;

import io.baton.capability.builtin.EgressPolicy;
import io.baton.cluster.RebalanceConfig;
import io.baton.engine.EngineConfig;
import io.baton.engine.RunLimits;
import io.baton.event.EventsConfig;
import io.baton.node.auth.OidcSettings;
import io.baton.node.http.DashboardSignIn;
import io.baton.node.http.RequestLimits;
import io.baton.recovery.RecoveryConfig;
import io.baton.retention.HousekeepingConfig;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/** A node's whole configuration, typed and validated. Immutable. */
public record NodeConfig(
    String nodeId,
    String cluster,
    Http http,
    Auth auth,
    Store store,
    Lease lease,
    EngineConfig engine,
    RecoveryConfig recovery,
    EventsConfig events,
    RebalanceConfig rebalance,
    HousekeepingConfig housekeeping,
    Path flowsDir,
    String loggingFormat,
    EgressPolicy egress,
    Warmup warmup) {

  /**
   * The warm-up before readiness.
   *
   * @param runs runs of the built-in warm-up flow; 0: no warm-up
   * @param timeout the longest the warm-up holds readiness back
   */
  public record Warmup(int runs, Duration timeout) {
    public static final int DEFAULT_RUNS = 200;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(20);

    /** No warm-up: the node reports ready as soon as it started. */
    public static final Warmup OFF = new Warmup(0, DEFAULT_TIMEOUT);

    public boolean enabled() {
      return runs > 0;
    }
  }

  /**
   * The HTTP API's settings.
   *
   * @param tlsCertFile with {@code tlsKeyFile}: serve HTTPS; both null: plain HTTP
   * @param limits the sizes of flows, inputs and headers accepted
   * @param stuckAfter how long an unowned RUNNING run stays unchanged before it is shown stuck
   */
  public record Http(
      String host,
      int port,
      int maxBodySize,
      Path tlsCertFile,
      Path tlsKeyFile,
      RequestLimits limits,
      Duration stuckAfter) {
    public boolean tls() {
      return tlsCertFile != null;
    }
  }

  /**
   * Who may call the API.
   *
   * @param keysFile the API keys file, or null (only with authentication off)
   */
  public record Auth(
      boolean required,
      Path keysFile,
      boolean metricsOpen,
      OidcSettings oidc,
      DashboardSignIn dashboardSignIn) {}

  /** Where runs are stored. */
  public record Store(
      StoreBackend type,
      String url,
      String user,
      String password,
      int maxPoolSize,
      Duration connectionTimeout,
      String sslMode,
      boolean migrate,
      Duration retryWindow,
      Path dataDir) {}

  /** Who proves ownership of runs. */
  public record Lease(
      LeaseBackend type,
      List<String> endpoints,
      String prefix,
      Duration ttl,
      String caFile,
      String certFile,
      String keyFile,
      String user,
      String password) {}

  /**
   * Builds the configuration from layered settings.
   *
   * @throws ConfigException a value is bad; the message names the key and where the value came from
   */
  public static NodeConfig from(Settings settings) {
    String nodeId = settings.optional(ConfigKeys.NODE_ID).orElseGet(NodeConfig::hostName);
    String cluster = settings.string(ConfigKeys.CLUSTER);
    Http http =
        new Http(
            settings.string(ConfigKeys.HTTP_HOST),
            checked(
                settings, ConfigKeys.HTTP_PORT, () -> port(settings.integer(ConfigKeys.HTTP_PORT))),
            positive(settings, ConfigKeys.HTTP_MAX_BODY_SIZE),
            settings.optional(ConfigKeys.HTTP_TLS_CERT_FILE).map(Path::of).orElse(null),
            settings.optional(ConfigKeys.HTTP_TLS_KEY_FILE).map(Path::of).orElse(null),
            requestLimits(settings),
            positiveDuration(settings, ConfigKeys.RUNS_STUCK_AFTER));
    if ((http.tlsCertFile() == null) != (http.tlsKeyFile() == null)) {
      throw settings.bad(
          http.tlsCertFile() == null ? ConfigKeys.HTTP_TLS_KEY_FILE : ConfigKeys.HTTP_TLS_CERT_FILE,
          "HTTPS needs both http.tlsCertFile and http.tlsKeyFile");
    }
    return new NodeConfig(
        nodeId,
        cluster,
        http,
        auth(settings),
        store(settings),
        lease(settings, cluster),
        engine(settings, nodeId),
        recovery(settings),
        new EventsConfig(
            positiveDuration(settings, ConfigKeys.EVENTS_POLL_INTERVAL),
            EventsConfig.DEFAULT_BATCH_SIZE,
            EventsConfig.DEFAULT_RETRY_AFTER,
            positiveDuration(settings, ConfigKeys.EVENTS_RETENTION)),
        rebalance(settings),
        housekeeping(settings),
        settings.optional(ConfigKeys.FLOWS_DIR).map(Path::of).orElse(null),
        settings.choice(ConfigKeys.LOGGING_FORMAT),
        egress(settings),
        warmup(settings));
  }

  private static Warmup warmup(Settings settings) {
    int runs = settings.integer(ConfigKeys.WARMUP_RUNS);
    if (runs < 0) {
      throw settings.bad(ConfigKeys.WARMUP_RUNS, "must not be negative (0 turns the warm-up off)");
    }
    return new Warmup(runs, positiveDuration(settings, ConfigKeys.WARMUP_TIMEOUT));
  }

  private static RequestLimits requestLimits(Settings settings) {
    int flow = positive(settings, ConfigKeys.HTTP_MAX_FLOW_SIZE);
    int input = positive(settings, ConfigKeys.HTTP_MAX_INPUT_SIZE);
    int headers = settings.integer(ConfigKeys.HTTP_MAX_HEADER_SIZE);
    return checked(
        settings, ConfigKeys.HTTP_MAX_HEADER_SIZE, () -> new RequestLimits(flow, input, headers));
  }

  private static EgressPolicy egress(Settings settings) {
    List<String> allowed = settings.list(ConfigKeys.EGRESS_ALLOWED_HOSTS);
    List<String> denied = settings.list(ConfigKeys.EGRESS_DENIED_HOSTS);
    boolean loopback = settings.bool(ConfigKeys.EGRESS_ALLOW_LOOPBACK);
    checked(
        settings,
        ConfigKeys.EGRESS_ALLOWED_HOSTS,
        () -> new EgressPolicy(allowed, List.of(), true));
    checked(
        settings, ConfigKeys.EGRESS_DENIED_HOSTS, () -> new EgressPolicy(List.of(), denied, true));
    return new EgressPolicy(allowed, denied, loopback);
  }

  private static HousekeepingConfig housekeeping(Settings settings) {
    return new HousekeepingConfig(
        positive(settings, ConfigKeys.ARCHIVE_BATCH_SIZE),
        notNegative(settings, ConfigKeys.ARCHIVE_PAUSE),
        notNegative(settings, ConfigKeys.ARCHIVE_INTERVAL),
        positiveDuration(settings, ConfigKeys.RETENTION_FINISHED_RUNS),
        positive(settings, ConfigKeys.RETENTION_BATCH_SIZE),
        notNegative(settings, ConfigKeys.RETENTION_PAUSE),
        notNegative(settings, ConfigKeys.RETENTION_INTERVAL));
  }

  private static Auth auth(Settings settings) {
    boolean required = settings.choice(ConfigKeys.AUTH_MODE).equals("keys");
    Path keysFile = settings.optional(ConfigKeys.AUTH_KEYS_FILE).map(Path::of).orElse(null);
    if (required && keysFile == null) {
      throw settings.bad(
          ConfigKeys.AUTH_MODE,
          "needs "
              + ConfigKeys.AUTH_KEYS_FILE.name()
              + " (make its first admin key with 'baton keys create --file-entry'); to run without authentication set "
              + ConfigKeys.AUTH_MODE.name()
              + ": none explicitly");
    }
    OidcSettings oidc = required ? oidc(settings) : null;
    if (oidc == null) {
      requireIssuer(settings, ConfigKeys.AUTH_OIDC_FLOWS_CLAIM);
    }
    return new Auth(
        required,
        required ? keysFile : null,
        settings.choice(ConfigKeys.AUTH_METRICS).equals("open"),
        oidc,
        dashboardSignIn(settings, oidc));
  }

  /** A key that means something only with an issuer is refused, not ignored, without one. */
  private static void requireIssuer(Settings settings, ConfigKey key) {
    if (settings.optional(key).filter(value -> !value.isBlank()).isPresent()) {
      throw settings.bad(
          key, "needs " + ConfigKeys.AUTH_OIDC_ISSUER.name() + " (and auth.mode keys)");
    }
  }

  /** The dashboard's OIDC sign-in when an issuer and auth.oidc.clientId are set, else null. */
  private static DashboardSignIn dashboardSignIn(Settings settings, OidcSettings oidc) {
    String clientId = settings.optional(ConfigKeys.AUTH_OIDC_CLIENT_ID).orElse(null);
    if (clientId == null || clientId.isBlank()) {
      return null;
    }
    if (oidc == null) {
      throw settings.bad(
          ConfigKeys.AUTH_OIDC_CLIENT_ID,
          "needs " + ConfigKeys.AUTH_OIDC_ISSUER.name() + " (and auth.mode keys)");
    }
    // the browser finds the issuer's endpoints through its discovery document
    httpUrl(settings, ConfigKeys.AUTH_OIDC_ISSUER, oidc.issuer());
    return new DashboardSignIn(
        oidc.issuer(), clientId, settings.string(ConfigKeys.AUTH_OIDC_SCOPE));
  }

  /** OIDC settings when auth.oidc.issuer is set, else null. */
  private static OidcSettings oidc(Settings settings) {
    String issuer = settings.optional(ConfigKeys.AUTH_OIDC_ISSUER).orElse(null);
    if (issuer == null || issuer.isBlank()) {
      return null;
    }
    String audience =
        settings
            .optional(ConfigKeys.AUTH_OIDC_AUDIENCE)
            .orElseThrow(
                () ->
                    settings.bad(
                        ConfigKeys.AUTH_OIDC_AUDIENCE, "is required with auth.oidc.issuer"));
    String jwks = settings.optional(ConfigKeys.AUTH_OIDC_JWKS_URL).orElse(null);
    URI jwksUrl = null;
    if (jwks != null && !jwks.isBlank()) {
      jwksUrl = httpUrl(settings, ConfigKeys.AUTH_OIDC_JWKS_URL, jwks);
    } else {
      // the keys are found through the issuer's discovery document, so the issuer must be a URL
      httpUrl(settings, ConfigKeys.AUTH_OIDC_ISSUER, issuer);
    }
    return new OidcSettings(
        issuer,
        audience,
        jwksUrl,
        settings.string(ConfigKeys.AUTH_OIDC_ROLE_CLAIM),
        settings.string(ConfigKeys.AUTH_OIDC_NAME_CLAIM),
        flowsClaim(settings),
        OidcSettings.DEFAULT_JWKS_CACHE_TTL,
        OidcSettings.DEFAULT_JWKS_MIN_REFRESH);
  }

  /** The claim naming a token's flow patterns, or null; another claim's name would be a mistake. */
  private static String flowsClaim(Settings settings) {
    String claim = settings.optional(ConfigKeys.AUTH_OIDC_FLOWS_CLAIM).map(String::trim).orElse("");
    if (claim.isEmpty()) {
      return null;
    }
    if (claim.chars().anyMatch(c -> Character.isWhitespace(c) || c == ',')) {
      throw settings.bad(
          ConfigKeys.AUTH_OIDC_FLOWS_CLAIM,
          "names one claim (such as baton_flows), not a list; the patterns go in the token's claim");
    }
    for (ConfigKey other :
        List.of(ConfigKeys.AUTH_OIDC_ROLE_CLAIM, ConfigKeys.AUTH_OIDC_NAME_CLAIM)) {
      if (claim.equals(settings.string(other))) {
        throw settings.bad(
            ConfigKeys.AUTH_OIDC_FLOWS_CLAIM,
            "is the same claim as " + other.name() + "; flow patterns need a claim of their own");
      }
    }
    return claim;
  }

  private static URI httpUrl(Settings settings, ConfigKey key, String value) {
    URI url;
    try {
      url = new URI(value);
    } catch (URISyntaxException e) {
      throw settings.bad(key, "is not a URL: " + e.getMessage());
    }
    if (!"https".equals(url.getScheme()) && !"http".equals(url.getScheme())) {
      throw settings.bad(
          key,
          key.equals(ConfigKeys.AUTH_OIDC_ISSUER)
              ? "must be an http(s) URL to find the issuer's keys through "
                  + "/.well-known/openid-configuration, or set "
                  + ConfigKeys.AUTH_OIDC_JWKS_URL.name()
              : "must be an http(s) URL");
    }
    return url;
  }

  private static Store store(Settings settings) {
    return new Store(
        settings.choice(ConfigKeys.STORE_TYPE, StoreBackend.class),
        settings.string(ConfigKeys.STORE_URL),
        settings.string(ConfigKeys.STORE_USER),
        settings.optional(ConfigKeys.STORE_PASSWORD).orElse(""),
        positive(settings, ConfigKeys.STORE_MAX_POOL_SIZE),
        positiveDuration(settings, ConfigKeys.STORE_CONNECTION_TIMEOUT),
        settings.choice(ConfigKeys.STORE_SSL_MODE),
        settings.bool(ConfigKeys.STORE_MIGRATE),
        positiveDuration(settings, ConfigKeys.STORE_RETRY_WINDOW),
        Path.of(settings.string(ConfigKeys.STORE_DATA_DIR)));
  }

  private static Lease lease(Settings settings, String cluster) {
    String prefix = settings.optional(ConfigKeys.LEASE_PREFIX).orElse("/baton/" + cluster + "/");
    if (!prefix.endsWith("/")) {
      throw settings.bad(ConfigKeys.LEASE_PREFIX, "a prefix ends with '/'");
    }
    return new Lease(
        settings.choice(ConfigKeys.LEASE_TYPE, LeaseBackend.class),
        settings.list(ConfigKeys.LEASE_ENDPOINTS),
        prefix,
        positiveDuration(settings, ConfigKeys.LEASE_TTL),
        settings.optional(ConfigKeys.LEASE_CA_FILE).orElse(null),
        settings.optional(ConfigKeys.LEASE_CERT_FILE).orElse(null),
        settings.optional(ConfigKeys.LEASE_KEY_FILE).orElse(null),
        settings.optional(ConfigKeys.LEASE_USER).orElse(null),
        settings.optional(ConfigKeys.LEASE_PASSWORD).orElse(null));
  }

  private static EngineConfig engine(Settings settings, String nodeId) {
    int maxRuns = positive(settings, ConfigKeys.EXECUTION_MAX_CONCURRENT_RUNS);
    Duration drain = positiveDuration(settings, ConfigKeys.EXECUTION_DRAIN_TIMEOUT);
    RunLimits limits =
        checked(
            settings,
            ConfigKeys.EXECUTION_MAX_RUNS_PER_TREE,
            () ->
                new RunLimits(
                    positive(settings, ConfigKeys.EXECUTION_MAX_SUBFLOW_DEPTH),
                    settings.integer(ConfigKeys.EXECUTION_MAX_RUNS_PER_TREE),
                    positive(settings, ConfigKeys.EXECUTION_MAX_OUTPUT_SIZE)));
    int checkpointEntries = positive(settings, ConfigKeys.EXECUTION_CHECKPOINT_ENTRIES);
    int checkpointBytes = positive(settings, ConfigKeys.EXECUTION_CHECKPOINT_BYTES);
    return EngineConfig.defaults(nodeId)
        .withMaxConcurrentRuns(maxRuns)
        .withDrainTimeout(drain)
        .withLimits(limits)
        .withCheckpoints(checkpointEntries, checkpointBytes);
  }

  private static RebalanceConfig rebalance(Settings settings) {
    double band = settings.integer(ConfigKeys.REBALANCE_BAND_PERCENT) / 100.0;
    if (band < 0 || band >= 1) {
      throw settings.bad(ConfigKeys.REBALANCE_BAND_PERCENT, "must be between 0 and 99");
    }
    double share = settings.integer(ConfigKeys.REBALANCE_MAX_SHARE_PERCENT) / 100.0;
    if (share <= 0 || share > 1) {
      throw settings.bad(ConfigKeys.REBALANCE_MAX_SHARE_PERCENT, "must be between 1 and 100");
    }
    return new RebalanceConfig(
        settings.bool(ConfigKeys.REBALANCE_ENABLED),
        positiveDuration(settings, ConfigKeys.REBALANCE_INTERVAL),
        band,
        positive(settings, ConfigKeys.REBALANCE_MAX_MOVES_PER_ROUND),
        share,
        notNegative(settings, ConfigKeys.REBALANCE_COOL_DOWN),
        RebalanceConfig.DEFAULT_OFFER_POLL_INTERVAL);
  }

  private static RecoveryConfig recovery(Settings settings) {
    int maxStartup = settings.integer(ConfigKeys.RECOVERY_MAX_STARTUP_RECOVERY);
    if (maxStartup < 0) {
      throw settings.bad(ConfigKeys.RECOVERY_MAX_STARTUP_RECOVERY, "must not be negative");
    }
    return new RecoveryConfig(
        settings.bool(ConfigKeys.RECOVERY_ENABLED),
        positiveDuration(settings, ConfigKeys.RECOVERY_CHECK_INTERVAL),
        maxStartup,
        positive(settings, ConfigKeys.RECOVERY_MAX_CLAIMS_PER_CHECK),
        RecoveryConfig.DEFAULT_CLAIM_STAGGER,
        notNegative(settings, ConfigKeys.RECOVERY_DEATH_PROBE_INTERVAL),
        notNegative(settings, ConfigKeys.RECOVERY_STORE_OUTAGE_HANDOFF));
  }

  private static Duration notNegative(Settings settings, ConfigKey key) {
    Duration value = settings.duration(key);
    if (value.isNegative()) {
      throw settings.bad(key, "must not be negative");
    }
    return value;
  }

  private static int positive(Settings settings, ConfigKey key) {
    int value = settings.integer(key);
    if (value < 1) {
      throw settings.bad(key, "must be at least 1");
    }
    return value;
  }

  private static Duration positiveDuration(Settings settings, ConfigKey key) {
    Duration value = settings.duration(key);
    if (value.isZero() || value.isNegative()) {
      throw settings.bad(key, "must be longer than zero");
    }
    return value;
  }

  private static int port(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("a port is between 0 and 65535");
    }
    return port;
  }

  private static <T> T checked(Settings settings, ConfigKey key, Supplier<T> value) {
    try {
      return value.get();
    } catch (IllegalArgumentException e) {
      throw settings.bad(key, e.getMessage());
    }
  }

  private static String hostName() {
    String fromEnv = System.getenv("HOSTNAME");
    if (fromEnv != null && !fromEnv.isBlank()) {
      return fromEnv;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "baton-node";
    }
  }
}

package io.baton.node.config;

import io.baton.cluster.RebalanceConfig;
import io.baton.engine.EngineConfig;
import io.baton.event.EventsConfig;
import io.baton.lease.LeaseManager;
import io.baton.recovery.RecoveryConfig;
import io.baton.time.Durations;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every configuration key a node understands: the single source of truth for names and defaults.
 */
public final class ConfigKeys {
  private static final Map<String, ConfigKey> KEYS = new LinkedHashMap<>();

  public static final ConfigKey NODE_ID =
      add(
          "nodeId",
          ConfigType.STRING,
          null,
          "This node's id; stable across restarts so it re-adopts its own runs (a StatefulSet pod name). Default: the host name.");
  public static final ConfigKey CLUSTER =
      add(
          "cluster",
          ConfigType.STRING,
          "default",
          "The cluster's name; nodes of one cluster share runs. Part of the default lease prefix.");
  public static final ConfigKey HTTP_HOST =
      add(
          "http.host",
          ConfigType.STRING,
          "127.0.0.1",
          "Address the HTTP API listens on. Use 0.0.0.0 only behind a network policy.");
  public static final ConfigKey HTTP_PORT =
      add("http.port", ConfigType.INTEGER, "8080", "Port of the HTTP API (0: any free port).");
  public static final ConfigKey HTTP_MAX_BODY_SIZE =
      add(
          "http.maxBodySize",
          ConfigType.INTEGER,
          "1048576",
          "Largest request body accepted, in bytes; larger ones get 413.");
  public static final ConfigKey HTTP_TLS_CERT_FILE =
      add(
          "http.tlsCertFile",
          ConfigType.STRING,
          null,
          "PEM certificate chain for HTTPS on http.port (with http.tlsKeyFile); re-read within a second when it changes.");
  public static final ConfigKey HTTP_TLS_KEY_FILE =
      add(
          "http.tlsKeyFile",
          ConfigType.STRING,
          null,
          "PEM private key (unencrypted PKCS#8) of http.tlsCertFile.");
  public static final ConfigKey AUTH_MODE =
      choice(
          "auth.mode",
          "keys",
          "Who may call the API: 'keys' (bearer API keys from auth.keysFile; every call but /health/* needs one) or 'none' (no authentication, everyone is an admin; baton node logs a warning at every start, baton dev's default).",
          "keys",
          "none");
  public static final ConfigKey AUTH_KEYS_FILE =
      add(
          "auth.keysFile",
          ConfigType.STRING,
          null,
          "The API keys file (YAML; see docs/security.md and 'baton keys create'). Re-read within a second of a change, so a removed or revoked key stops working on every node that reads it.");
  public static final ConfigKey AUTH_METRICS =
      choice(
          "auth.metrics",
          "open",
          "Who may scrape /metrics: 'open' (anyone who reaches the port) or 'viewer' (an API key of any role).",
          "open",
          "viewer");
  public static final ConfigKey STORE_TYPE =
      choice(
          "store.type",
          StoreBackend.POSTGRES,
          "Where runs are journaled: PostgreSQL, an embedded file-backed store (one node only), or memory (nothing survives a restart).");
  public static final ConfigKey STORE_URL =
      add(
          "store.url",
          ConfigType.STRING,
          "jdbc:postgresql://127.0.0.1:5432/baton",
          "JDBC URL of the PostgreSQL database (store.type postgres).");
  public static final ConfigKey STORE_USER =
      add("store.user", ConfigType.STRING, "baton", "Database user.");
  public static final ConfigKey STORE_PASSWORD =
      add(
          "store.password",
          ConfigType.STRING,
          "",
          "Database password (prefer the environment: BATON_STORE_PASSWORD).");
  public static final ConfigKey STORE_MAX_POOL_SIZE =
      add(
          "store.maxPoolSize",
          ConfigType.INTEGER,
          "10",
          "Most database connections the node holds.");
  public static final ConfigKey STORE_CONNECTION_TIMEOUT =
      add(
          "store.connectionTimeout",
          ConfigType.DURATION,
          "5s",
          "How long to wait for a database connection before a call fails (and is retried).");
  public static final ConfigKey STORE_SSL_MODE =
      choice(
          "store.sslMode",
          "prefer",
          "PostgreSQL sslmode.",
          "disable",
          "allow",
          "prefer",
          "require",
          "verify-ca",
          "verify-full");
  public static final ConfigKey STORE_MIGRATE =
      add(
          "store.migrate",
          ConfigType.BOOLEAN,
          "true",
          "Run schema migrations at start (a node refuses to start against a newer schema either way).");
  public static final ConfigKey STORE_RETRY_WINDOW =
      add(
          "store.retryWindow",
          ConfigType.DURATION,
          "5m",
          "How long one store call keeps retrying transient failures before it fails (the engine then retries its writes until the store is back).");
  public static final ConfigKey STORE_DATA_DIR =
      add(
          "store.dataDir",
          ConfigType.STRING,
          "baton-data",
          "Directory of the embedded store (store.type embedded).");
  public static final ConfigKey LEASE_TYPE =
      choice(
          "lease.type",
          LeaseBackend.ETCD,
          "Who proves ownership of runs: etcd, or a lease service inside this process (one node only).");
  public static final ConfigKey LEASE_ENDPOINTS =
      add("lease.endpoints", ConfigType.LIST, "http://127.0.0.1:2379", "etcd endpoints.");
  public static final ConfigKey LEASE_PREFIX =
      add(
          "lease.prefix",
          ConfigType.STRING,
          null,
          "Key prefix in etcd. Default: /baton/<cluster>/.");
  public static final ConfigKey LEASE_TTL =
      add(
          "lease.ttl",
          ConfigType.DURATION,
          Durations.format(LeaseManager.DEFAULT_LEASE_TTL),
          "How long a node's lease outlives its last renewal; a dead node's runs are adopted after at most this.");
  public static final ConfigKey LEASE_CA_FILE =
      add("lease.caFile", ConfigType.STRING, null, "CA certificate for TLS to etcd.");
  public static final ConfigKey LEASE_CERT_FILE =
      add("lease.certFile", ConfigType.STRING, null, "Client certificate for TLS to etcd.");
  public static final ConfigKey LEASE_KEY_FILE =
      add("lease.keyFile", ConfigType.STRING, null, "Client key for TLS to etcd.");
  public static final ConfigKey LEASE_USER =
      add("lease.user", ConfigType.STRING, null, "etcd user.");
  public static final ConfigKey LEASE_PASSWORD =
      add("lease.password", ConfigType.STRING, null, "etcd password.");
  public static final ConfigKey RECOVERY_ENABLED =
      add(
          "recovery.enabled",
          ConfigType.BOOLEAN,
          "true",
          "Re-adopt this node's runs at start and adopt orphans of dead nodes.");
  public static final ConfigKey RECOVERY_CHECK_INTERVAL =
      add(
          "recovery.checkInterval",
          ConfigType.DURATION,
          Durations.format(RecoveryConfig.DEFAULT_CHECK_INTERVAL),
          "How often the safety-net pass looks for runs of dead nodes, pending runs and due parked runs.");
  public static final ConfigKey RECOVERY_MAX_STARTUP_RECOVERY =
      add(
          "recovery.maxStartupRecovery",
          ConfigType.INTEGER,
          String.valueOf(RecoveryConfig.DEFAULT_MAX_STARTUP_RECOVERY),
          "Most of its own runs a starting node re-adopts.");
  public static final ConfigKey RECOVERY_MAX_CLAIMS_PER_CHECK =
      add(
          "recovery.maxClaimsPerCheck",
          ConfigType.INTEGER,
          String.valueOf(RecoveryConfig.DEFAULT_MAX_CLAIMS_PER_CHECK),
          "Most runs one safety-net pass claims.");
  public static final ConfigKey RECOVERY_DEATH_PROBE_INTERVAL =
      add(
          "recovery.deathProbeInterval",
          ConfigType.DURATION,
          Durations.format(RecoveryConfig.DEFAULT_DEATH_PROBE_INTERVAL),
          "How often the failure detector probes the other nodes' advertised addresses; a node whose address refuses connections twice has its lease revoked at once instead of after its TTL. 0s turns it off.");
  public static final ConfigKey RECOVERY_STORE_OUTAGE_HANDOFF =
      add(
          "recovery.storeOutageHandoff",
          ConfigType.DURATION,
          Durations.format(RecoveryConfig.DEFAULT_STORE_OUTAGE_HANDOFF),
          "How long this node's journal appends may keep failing (the database unreachable from this node only) before it gives its runs away to nodes that reach the store, and waits, not ready, for the store. 0s turns it off.");
  public static final ConfigKey REBALANCE_ENABLED =
      add(
          "rebalance.enabled",
          ConfigType.BOOLEAN,
          "true",
          "Even out active runs across the nodes: a node above its fair share lets runs go at a step boundary and offers them to nodes below it.");
  public static final ConfigKey REBALANCE_INTERVAL =
      add(
          "rebalance.interval",
          ConfigType.DURATION,
          Durations.format(RebalanceConfig.DEFAULT_INTERVAL),
          "How often a rebalancing round runs on each node; a node's rounds never overlap.");
  public static final ConfigKey REBALANCE_BAND_PERCENT =
      add(
          "rebalance.bandPercent",
          ConfigType.INTEGER,
          String.valueOf(Math.round(RebalanceConfig.DEFAULT_BAND * 100)),
          "No run moves while every node is within this many percent of its fair share of the active runs.");
  public static final ConfigKey REBALANCE_MAX_MOVES_PER_ROUND =
      add(
          "rebalance.maxMovesPerRound",
          ConfigType.INTEGER,
          String.valueOf(RebalanceConfig.DEFAULT_MAX_MOVES_PER_ROUND),
          "The most runs one node gives away in one round.");
  public static final ConfigKey REBALANCE_MAX_SHARE_PERCENT =
      add(
          "rebalance.maxSharePercent",
          ConfigType.INTEGER,
          String.valueOf(Math.round(RebalanceConfig.DEFAULT_MAX_SHARE * 100)),
          "The most, in percent of its active runs, one node gives away in one round.");
  public static final ConfigKey REBALANCE_COOL_DOWN =
      add(
          "rebalance.coolDown",
          ConfigType.DURATION,
          Durations.format(RebalanceConfig.DEFAULT_COOL_DOWN),
          "A run moved to a node is not moved again for this long.");
  public static final ConfigKey EXECUTION_MAX_CONCURRENT_RUNS =
      add(
          "execution.maxConcurrentRuns",
          ConfigType.INTEGER,
          String.valueOf(EngineConfig.DEFAULT_MAX_CONCURRENT_RUNS),
          "Run trees this node executes at once; beyond that, submitted runs wait as PENDING for any node with room. A tenth of it is held back from new work for recovery (waking due parked runs, adopting orphans).");
  public static final ConfigKey EXECUTION_DRAIN_TIMEOUT =
      add(
          "execution.drainTimeout",
          ConfigType.DURATION,
          Durations.format(EngineConfig.DEFAULT_DRAIN_TIMEOUT),
          "How long a graceful shutdown lets running steps finish; keep it below the pod's terminationGracePeriodSeconds.");
  public static final ConfigKey EXECUTION_CHECKPOINT_ENTRIES =
      add(
          "execution.checkpointEntries",
          ConfigType.INTEGER,
          String.valueOf(EngineConfig.DEFAULT_CHECKPOINT_ENTRIES),
          "The owner of a run writes a checkpoint of its state once this many journal entries were written since the last one (and whenever the run parks); a claim reads the checkpoint and only the entries after it.");
  public static final ConfigKey EXECUTION_CHECKPOINT_BYTES =
      add(
          "execution.checkpointBytes",
          ConfigType.INTEGER,
          String.valueOf(EngineConfig.DEFAULT_CHECKPOINT_BYTES),
          "The owner of a run also writes a checkpoint once about this many bytes of journal (estimated from the entries' JSON) were written since the last one.");
  public static final ConfigKey EVENTS_RETENTION =
      add(
          "events.retention",
          ConfigType.DURATION,
          Durations.format(EventsConfig.DEFAULT_RETENTION),
          "How long received events are kept once their runs exist: a duplicate (same source and id) within it is answered with the first one's runs, and it is what a replay can reach. Runs themselves deduplicate (flow, key) for as long as they are kept.");
  public static final ConfigKey EVENTS_POLL_INTERVAL =
      add(
          "events.pollInterval",
          ConfigType.DURATION,
          Durations.format(EventsConfig.DEFAULT_POLL_INTERVAL),
          "How often an idle node looks in the event outbox (events enqueued by applications and emitted by steps).");
  public static final ConfigKey FLOWS_DIR =
      add(
          "flows.dir",
          ConfigType.STRING,
          null,
          "A directory of flow files (*.yaml, *.yml, *.json) applied at start.");
  public static final ConfigKey LOGGING_FORMAT =
      choice("logging.format", "text", "Log lines as text or as JSON objects.", "text", "json");

  private ConfigKeys() {}

  private static ConfigKey add(String name, ConfigType type, String defaultValue, String meaning) {
    ConfigKey key = new ConfigKey(name, type, defaultValue, meaning, List.of());
    KEYS.put(name, key);
    return key;
  }

  private static ConfigKey choice(
      String name, String defaultValue, String meaning, String... choices) {
    ConfigKey key = new ConfigKey(name, ConfigType.CHOICE, defaultValue, meaning, List.of(choices));
    KEYS.put(name, key);
    return key;
  }

  /** A key whose values are the constants of the default's enum, in declaration order. */
  private static <E extends Enum<E>> ConfigKey choice(String name, E defaultValue, String meaning) {
    String[] choices =
        Arrays.stream(defaultValue.getDeclaringClass().getEnumConstants())
            .map(ConfigKey::choiceName)
            .toArray(String[]::new);
    return choice(name, ConfigKey.choiceName(defaultValue), meaning, choices);
  }

  public static List<ConfigKey> all() {
    return List.copyOf(KEYS.values());
  }

  public static Optional<ConfigKey> find(String name) {
    return Optional.ofNullable(KEYS.get(name));
  }
}

package io.baton.node.config;

import io.baton.capability.builtin.EgressPolicy;
import io.baton.cluster.RebalanceConfig;
import io.baton.engine.EngineConfig;
import io.baton.engine.RunLimits;
import io.baton.event.EventsConfig;
import io.baton.lease.LeaseManager;
import io.baton.node.http.HttpApi;
import io.baton.node.http.RequestLimits;
import io.baton.recovery.RecoveryConfig;
import io.baton.retention.HousekeepingConfig;
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
          "Largest request body accepted, in bytes; larger ones get 413 naming this key.");
  public static final ConfigKey HTTP_MAX_FLOW_SIZE =
      add(
          RequestLimits.MAX_FLOW_SIZE_KEY,
          ConfigType.INTEGER,
          String.valueOf(RequestLimits.DEFAULT_MAX_FLOW_SIZE),
          "Largest flow definition POST /api/v1/flows accepts, in bytes; a larger one gets 413 naming this key.");
  public static final ConfigKey HTTP_MAX_INPUT_SIZE =
      add(
          RequestLimits.MAX_INPUT_SIZE_KEY,
          ConfigType.INTEGER,
          String.valueOf(RequestLimits.DEFAULT_MAX_INPUT_SIZE),
          "Largest run input (POST /api/v1/runs) or event data (POST /api/v1/events) accepted, in bytes of JSON; a larger one gets 413 naming this key.");
  public static final ConfigKey HTTP_MAX_HEADER_SIZE =
      add(
          RequestLimits.MAX_HEADER_SIZE_KEY,
          ConfigType.INTEGER,
          String.valueOf(RequestLimits.DEFAULT_MAX_HEADER_SIZE),
          "Largest request line and headers accepted, in bytes (at least 1024); larger ones get 431 (414 for a URI alone) naming this key.");
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
          "The API keys file (YAML; see docs/security.md and 'baton keys create --file-entry'). Re-read within a second of a change, so a removed or revoked key stops working on every node that reads it.");
  public static final ConfigKey AUTH_OIDC_ISSUER =
      add(
          "auth.oidc.issuer",
          ConfigType.STRING,
          null,
          "Accept OIDC/JWT bearer tokens of this issuer (their iss) besides API keys; needs auth.oidc.audience. Its keys are found through <issuer>/.well-known/openid-configuration (its jwks_uri) unless auth.oidc.jwksUrl is set. Only with auth.mode keys.");
  public static final ConfigKey AUTH_OIDC_AUDIENCE =
      add(
          "auth.oidc.audience",
          ConfigType.STRING,
          null,
          "The audience (aud) an OIDC token must name to be accepted by this cluster.");
  public static final ConfigKey AUTH_OIDC_JWKS_URL =
      add(
          "auth.oidc.jwksUrl",
          ConfigType.STRING,
          null,
          "Where the issuer publishes its signing keys (JWKS), such as https://idp/realms/x/protocol/openid-connect/certs; when not set, found through the issuer's discovery document. Cached for 5 minutes, fetched again (at most every 10 s) when a token names a key it lacks.");
  public static final ConfigKey AUTH_OIDC_CLIENT_ID =
      add(
          "auth.oidc.clientId",
          ConfigType.STRING,
          null,
          "The dashboard's client id at the issuer (a public client, no secret): with it the dashboard offers to sign in with the issuer (authorization code with PKCE; the redirect URI to register is the node's address with path /). Tokens it gets must carry auth.oidc.audience.");
  public static final ConfigKey AUTH_OIDC_SCOPE =
      add(
          "auth.oidc.scope",
          ConfigType.STRING,
          "openid",
          "The scope the dashboard asks the issuer for when it signs in (auth.oidc.clientId).");
  public static final ConfigKey AUTH_OIDC_ROLE_CLAIM =
      add(
          "auth.oidc.roleClaim",
          ConfigType.STRING,
          "roles",
          "The token claim holding the caller's Baton role (viewer, operator, developer, admin): a string or a list; the highest known role wins, other values are ignored.");
  public static final ConfigKey AUTH_OIDC_NAME_CLAIM =
      add(
          "auth.oidc.nameClaim",
          ConfigType.STRING,
          "sub",
          "The token claim that names the caller in the journal and the audit record.");
  public static final ConfigKey AUTH_OIDC_FLOWS_CLAIM =
      add(
          "auth.oidc.flowsClaim",
          ConfigType.STRING,
          null,
          "The token claim limiting the caller to flow-name patterns, as an API key's flows are (billing-*; * alone: every flow): a list, or one string of patterns separated by spaces or commas. When set, a token without patterns in this claim is refused; when not set, tokens act on every flow their role allows.");
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
  public static final ConfigKey EXECUTION_MAX_SUBFLOW_DEPTH =
      add(
          RunLimits.MAX_SUBFLOW_DEPTH_KEY,
          ConfigType.INTEGER,
          String.valueOf(RunLimits.DEFAULT_MAX_SUBFLOW_DEPTH),
          "How deep subflows may nest (a root run is at depth 0). A step that would start a subflow deeper fails with subflow_depth_exceeded, naming this key, and so does every run above it: a flow that starts itself stops here.");
  public static final ConfigKey EXECUTION_MAX_RUNS_PER_TREE =
      add(
          RunLimits.MAX_RUNS_PER_TREE_KEY,
          ConfigType.INTEGER,
          String.valueOf(RunLimits.DEFAULT_MAX_RUNS_PER_TREE),
          "How many runs one run tree may hold, the root and every subflow counted. A step that would start one more fails with tree_runs_exceeded, naming this key.");
  public static final ConfigKey EXECUTION_MAX_OUTPUT_SIZE =
      add(
          RunLimits.MAX_OUTPUT_SIZE_KEY,
          ConfigType.INTEGER,
          String.valueOf(RunLimits.DEFAULT_MAX_OUTPUT_SIZE),
          "Largest step output journaled, in bytes of JSON; a step whose output is larger fails with output_too_large (not retryable), naming this key.");
  public static final ConfigKey EGRESS_ALLOWED_HOSTS =
      add(
          EgressPolicy.ALLOWED_KEY,
          ConfigType.LIST,
          "",
          "Where the http capability may send requests: CIDRs (10.0.0.0/8), addresses, host names and patterns (*.example.com), comma-separated. Empty: everywhere not denied. A name pattern never lifts a default denial; a CIDR or address does.");
  public static final ConfigKey EGRESS_DENIED_HOSTS =
      add(
          EgressPolicy.DENIED_KEY,
          ConfigType.LIST,
          "",
          "Where the http capability must never send requests (same forms as egress.allowedHosts); wins over everything. Link-local (169.254.0.0/16, fe80::/10), cloud metadata addresses and names and the unspecified addresses are denied by default. Every address a name resolves to is judged, and so is every redirect it follows.");
  public static final ConfigKey EGRESS_ALLOW_LOOPBACK =
      add(
          EgressPolicy.LOOPBACK_KEY,
          ConfigType.BOOLEAN,
          "false",
          "Whether the http capability may call loopback addresses (127.0.0.0/8, ::1): this node's own API, etcd and PostgreSQL often listen there. baton dev presets true.");
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
  public static final ConfigKey RUNS_STUCK_AFTER =
      add(
          "runs.stuckAfter",
          ConfigType.DURATION,
          Durations.format(HttpApi.DEFAULT_STUCK_AFTER),
          "How long a RUNNING run whose owner holds no live lease may stay unchanged before the API and dashboard show it stuck (derived state and state=stuck filter). A run of a node that left is adopted by the claimer well within it as a rule.");
  public static final ConfigKey RETENTION_FINISHED_RUNS =
      add(
          "retention.finishedRuns",
          ConfigType.DURATION,
          Durations.format(HousekeepingConfig.DEFAULT_FINISHED_RUNS),
          "How long a finished run (SUCCEEDED, CANCELLED, or FAILED and not recoverable) is kept before it is deleted with its journal, unless its flow says otherwise (retention: 7d). Recoverable failures are kept until resumed or discarded.");
  public static final ConfigKey RETENTION_BATCH_SIZE =
      add(
          "retention.batchSize",
          ConfigType.INTEGER,
          String.valueOf(HousekeepingConfig.DEFAULT_RETENTION_BATCH_SIZE),
          "Run trees one retention batch deletes at most (one short transaction).");
  public static final ConfigKey RETENTION_PAUSE =
      add(
          "retention.pause",
          ConfigType.DURATION,
          Durations.format(HousekeepingConfig.DEFAULT_RETENTION_PAUSE),
          "The pause after a full retention batch, before the next.");
  public static final ConfigKey RETENTION_INTERVAL =
      add(
          "retention.interval",
          ConfigType.DURATION,
          Durations.format(HousekeepingConfig.DEFAULT_RETENTION_INTERVAL),
          "How often retention looks for finished runs past their time once it found none; 0s turns retention off.");
  public static final ConfigKey ARCHIVE_BATCH_SIZE =
      add(
          "archive.batchSize",
          ConfigType.INTEGER,
          String.valueOf(HousekeepingConfig.DEFAULT_ARCHIVE_BATCH_SIZE),
          "Journal entries one archiver batch moves at most from the hot journal to the archive.");
  public static final ConfigKey ARCHIVE_PAUSE =
      add(
          "archive.pause",
          ConfigType.DURATION,
          Durations.format(HousekeepingConfig.DEFAULT_ARCHIVE_PAUSE),
          "The pause after a full archiver batch, before the next.");
  public static final ConfigKey ARCHIVE_INTERVAL =
      add(
          "archive.interval",
          ConfigType.DURATION,
          Durations.format(HousekeepingConfig.DEFAULT_ARCHIVE_INTERVAL),
          "How often the archiver looks for journal entries covered by checkpoints once it found none; 0s turns it off.");
  public static final ConfigKey WARMUP_RUNS =
      add(
          "warmup.runs",
          ConfigType.INTEGER,
          String.valueOf(NodeConfig.Warmup.DEFAULT_RUNS),
          "Runs of a built-in flow of noop steps a node executes through its engine, journal and store after it starts and before it reports ready, so that a fresh JVM has compiled its hot paths before the load balancer sends it traffic; they are deleted as they finish and never listed. 0 turns the warm-up off (baton dev presets 0).");
  public static final ConfigKey WARMUP_TIMEOUT =
      add(
          "warmup.timeout",
          ConfigType.DURATION,
          Durations.format(NodeConfig.Warmup.DEFAULT_TIMEOUT),
          "The longest the warm-up holds readiness back; the node reports ready when it ends, finished or not.");
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

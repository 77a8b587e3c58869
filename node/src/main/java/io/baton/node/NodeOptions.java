package io.baton.node;

import io.baton.node.config.ConfigKeys;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The flags of {@code baton node} and {@code baton dev}; each maps to one configuration key. */
final class NodeOptions {
  @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration file.")
  Path config;

  @Option(names = "--node-id", description = "This node's id (nodeId).")
  String nodeId;

  @Option(names = "--cluster", description = "The cluster's name (cluster).")
  String cluster;

  @Option(names = "--http-host", description = "Address of the HTTP API (http.host).")
  String httpHost;

  @Option(names = "--http-port", description = "Port of the HTTP API (http.port).")
  String httpPort;

  @Option(names = "--store-type", description = "postgres, embedded or memory (store.type).")
  String storeType;

  @Option(names = "--store-url", description = "JDBC URL (store.url).")
  String storeUrl;

  @Option(names = "--store-data-dir", description = "Embedded store directory (store.dataDir).")
  String storeDataDir;

  @Option(names = "--lease-type", description = "etcd or local (lease.type).")
  String leaseType;

  @Option(
      names = "--lease-endpoints",
      description = "etcd endpoints, comma-separated (lease.endpoints).")
  String leaseEndpoints;

  @Option(names = "--lease-ttl", description = "Lease TTL, e.g. 10s (lease.ttl).")
  String leaseTtl;

  @Option(names = "--flows-dir", description = "Flow files applied at start (flows.dir).")
  String flowsDir;

  @Option(names = "--logging-format", description = "text or json (logging.format).")
  String loggingFormat;

  /** The flags given, by configuration key. */
  Map<String, String> flags() {
    Map<String, String> flags = new LinkedHashMap<>();
    put(flags, ConfigKeys.NODE_ID.name(), nodeId);
    put(flags, ConfigKeys.CLUSTER.name(), cluster);
    put(flags, ConfigKeys.HTTP_HOST.name(), httpHost);
    put(flags, ConfigKeys.HTTP_PORT.name(), httpPort);
    put(flags, ConfigKeys.STORE_TYPE.name(), storeType);
    put(flags, ConfigKeys.STORE_URL.name(), storeUrl);
    put(flags, ConfigKeys.STORE_DATA_DIR.name(), storeDataDir);
    put(flags, ConfigKeys.LEASE_TYPE.name(), leaseType);
    put(flags, ConfigKeys.LEASE_ENDPOINTS.name(), leaseEndpoints);
    put(flags, ConfigKeys.LEASE_TTL.name(), leaseTtl);
    put(flags, ConfigKeys.FLOWS_DIR.name(), flowsDir);
    put(flags, ConfigKeys.LOGGING_FORMAT.name(), loggingFormat);
    return flags;
  }

  private static void put(Map<String, String> flags, String key, String value) {
    if (value != null) {
      flags.put(key, value);
    }
  }
}

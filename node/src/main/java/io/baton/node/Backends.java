package io.baton.node;

import io.baton.lease.LeaseManager;
import io.baton.lease.etcd.EtcdLeaseConfig;
import io.baton.lease.etcd.EtcdLeaseManager;
import io.baton.lease.memory.InMemoryLeaseManager;
import io.baton.lease.memory.InMemoryLeaseService;
import io.baton.node.config.NodeConfig;
import io.baton.node.config.StoreBackend;
import io.baton.node.embedded.FileStores;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import io.baton.store.postgres.PostgresStoreConfig;
import io.baton.store.postgres.PostgresStores;
import io.baton.time.Scheduler;
import java.nio.file.Path;
import java.time.Clock;

/**
 * Opens the store and the lease manager the configuration names: the one place that switches on
 * {@link StoreBackend} and {@link io.baton.node.config.LeaseBackend}.
 */
final class Backends {
  private Backends() {}

  /** The opened stores and the highest fencing token they hold (0 when unknown). */
  record OpenedStores(Stores stores, long highestToken) {}

  /**
   * @param poolMetrics the registry the PostgreSQL connection pool reports to (a Dropwizard {@code
   *     MetricRegistry}), or null
   */
  static OpenedStores stores(NodeConfig.Store store, Clock clock, Object poolMetrics) {
    return switch (store.type()) {
      case POSTGRES ->
          new OpenedStores(
              PostgresStores.create(
                  postgres(store).toBuilder().poolMetrics(poolMetrics).build(), clock),
              0);
      case EMBEDDED -> {
        FileStores.Opened opened = FileStores.open(store.dataDir(), clock);
        yield new OpenedStores(opened.stores(), opened.highestToken());
      }
      case MEMORY -> new OpenedStores(InMemoryStores.create(), 0);
    };
  }

  /**
   * Group-commit lanes for the store's journal: PostgreSQL commits two batches at once on separate
   * connections; the embedded and memory stores append under one lock, so a second lane buys
   * nothing.
   */
  static int journalCommitters(StoreBackend store) {
    return switch (store) {
      case POSTGRES -> 2;
      case EMBEDDED, MEMORY -> 1;
    };
  }

  static PostgresStoreConfig postgres(NodeConfig.Store store) {
    return PostgresStoreConfig.builder(store.url())
        .user(store.user())
        .password(store.password())
        .maxPoolSize(store.maxPoolSize())
        .connectionTimeout(store.connectionTimeout())
        .sslMode(store.sslMode())
        .migrate(store.migrate())
        .transientRetryWindow(store.retryWindow())
        .build();
  }

  static LeaseManager leases(NodeConfig config, Scheduler scheduler, long highestToken) {
    return switch (config.lease().type()) {
      case LOCAL ->
          new InMemoryLeaseManager(
              config.nodeId(),
              config.lease().ttl(),
              new InMemoryLeaseService(scheduler, highestToken),
              scheduler);
      case ETCD -> new EtcdLeaseManager(etcd(config), config.nodeId(), scheduler);
    };
  }

  static EtcdLeaseConfig etcd(NodeConfig config) {
    NodeConfig.Lease lease = config.lease();
    EtcdLeaseConfig.Builder builder =
        EtcdLeaseConfig.builder()
            .endpoints(String.join(",", lease.endpoints()))
            .cluster(config.cluster())
            .prefix(lease.prefix())
            .leaseTtl(lease.ttl());
    if (lease.caFile() != null) {
      builder.caFile(Path.of(lease.caFile()));
    }
    if (lease.certFile() != null) {
      builder.certFile(Path.of(lease.certFile()));
    }
    if (lease.keyFile() != null) {
      builder.keyFile(Path.of(lease.keyFile()));
    }
    if (lease.user() != null) {
      builder.credentials(lease.user(), lease.password());
    }
    return builder.build();
  }
}

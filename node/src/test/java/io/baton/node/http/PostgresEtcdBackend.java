package io.baton.node.http;

import io.baton.cluster.OrchestratorNode;
import io.baton.lease.etcd.EtcdLeaseConfig;
import io.baton.lease.etcd.EtcdLeaseManager;
import io.baton.lease.etcd.EtcdTestCluster;
import io.baton.store.Stores;
import io.baton.store.postgres.PostgresStores;
import io.baton.store.postgres.testkit.TestDatabase;
import java.time.Clock;
import java.time.Duration;

/**
 * The contract tests' backend on real services: one PostgreSQL database and one etcd member per
 * test class, every node with its own connection pool and etcd client, as separate processes would
 * have.
 */
public final class PostgresEtcdBackend implements TestBackend {
  private final EtcdTestCluster etcd = EtcdTestCluster.start(1);
  private final TestDatabase database = TestDatabase.create("api");
  private final String cluster = "api-" + System.nanoTime();

  @Override
  public NodeUnderTest build(NodeSpec spec) {
    Stores stores = PostgresStores.create(database.config().build(), Clock.systemUTC());
    OutageMetadataStore metadata = new OutageMetadataStore(stores.metadata());
    EtcdLeaseManager leases =
        new EtcdLeaseManager(
            EtcdLeaseConfig.builder()
                .endpoints(etcd.endpoints())
                .cluster(cluster)
                .leaseTtl(Duration.ofSeconds(5))
                .build(),
            spec.nodeId(),
            spec.scheduler());
    OrchestratorNode node =
        spec.build(
            new Stores(
                stores.journal(),
                metadata.store(),
                stores.blobs(),
                stores.events(),
                stores.access(),
                null),
            leases);
    return new NodeUnderTest(node, stores, metadata::down);
  }

  /**
   * The database every node of this backend uses (for tests that write to it as an application).
   */
  public TestDatabase database() {
    return database;
  }

  @Override
  public void close() {
    database.close();
    etcd.close();
  }
}

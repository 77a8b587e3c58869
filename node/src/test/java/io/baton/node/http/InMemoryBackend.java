package io.baton.node.http;

import io.baton.cluster.OrchestratorNode;
import io.baton.lease.LeaseManager;
import io.baton.lease.memory.InMemoryLeaseManager;
import io.baton.lease.memory.InMemoryLeaseService;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import io.baton.time.SystemScheduler;
import java.time.Duration;

/**
 * The default backend of the API tests: in-memory stores and an in-process lease service shared by
 * every node a test class starts, so that they form one cluster. The metadata store can be cut off.
 */
public final class InMemoryBackend implements TestBackend {
  static final Duration LEASE_TTL = Duration.ofSeconds(5);

  private final SystemScheduler scheduler = new SystemScheduler("test-leases", 1);
  private final InMemoryLeaseService leaseService = new InMemoryLeaseService(scheduler);
  private final Stores stores = InMemoryStores.create();
  private final OutageMetadataStore metadata = new OutageMetadataStore(stores.metadata());

  @Override
  public NodeUnderTest build(NodeSpec spec) {
    LeaseManager leases =
        new InMemoryLeaseManager(spec.nodeId(), LEASE_TTL, leaseService, spec.scheduler());
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
    return new NodeUnderTest(node, () -> {}, metadata::down);
  }

  @Override
  public void close() {
    scheduler.close();
  }
}

package io.baton.node.http;

import com.codahale.metrics.MetricRegistry;
import io.baton.capability.CapabilityRegistry;
import io.baton.cluster.OrchestratorNode;
import io.baton.engine.EngineConfig;
import io.baton.flow.FlowParser;
import io.baton.lease.LeaseManager;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.Stores;
import io.baton.time.SystemScheduler;

/**
 * What {@link ApiTestBase#createNode} must build a node from: the test owns the scheduler and the
 * metrics, and its steps need these capabilities.
 */
public record NodeSpec(
    String nodeId,
    SystemScheduler scheduler,
    MetricRegistry metrics,
    CapabilityRegistry capabilities,
    EngineConfig engine,
    RecoveryConfig recovery) {

  /** The node this spec describes, on the given stores and lease manager, not started. */
  public OrchestratorNode build(Stores stores, LeaseManager leases) {
    return OrchestratorNode.builder()
        .config(engine)
        .recovery(recovery)
        .scheduler(scheduler)
        .stores(stores)
        .leases(leases)
        .capabilities(capabilities)
        .flowReader(new FlowParser(capabilities)::parse)
        .metrics(metrics)
        .address("127.0.0.1:0")
        .version("test")
        .build();
  }
}

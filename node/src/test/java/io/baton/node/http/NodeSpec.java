package io.baton.node.http;

import com.codahale.metrics.MetricRegistry;
import io.baton.capability.CapabilityRegistry;
import io.baton.engine.EngineConfig;
import io.baton.recovery.RecoveryConfig;
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
  public io.baton.cluster.OrchestratorNode build(
      io.baton.store.Stores stores, io.baton.lease.LeaseManager leases) {
    return io.baton.cluster.OrchestratorNode.builder()
        .config(engine)
        .recovery(recovery)
        .scheduler(scheduler)
        .stores(stores)
        .leases(leases)
        .capabilities(capabilities)
        .flowReader(new io.baton.flow.FlowParser(capabilities)::parse)
        .metrics(metrics)
        .address("127.0.0.1:0")
        .version("test")
        .build();
  }
}

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
    RecoveryConfig recovery) {}

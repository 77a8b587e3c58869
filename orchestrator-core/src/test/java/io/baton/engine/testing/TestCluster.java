package io.baton.engine.testing;

import com.codahale.metrics.MetricRegistry;
import io.baton.capability.CapabilityRegistry;
import io.baton.cluster.OrchestratorNode;
import io.baton.cluster.RebalanceConfig;
import io.baton.engine.EngineConfig;
import io.baton.engine.FlowRegistry;
import io.baton.flow.Flow;
import io.baton.lease.LeaseManager;
import io.baton.lease.memory.InMemoryLeaseManager;
import io.baton.lease.memory.InMemoryLeaseService;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import io.baton.testkit.ManualScheduler;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

/**
 * Nodes on one deterministic scheduler, sharing in-memory stores and an in-memory lease service:
 * the engine tests' cluster. Time moves only when the test moves it. Not thread-safe.
 */
public final class TestCluster implements AutoCloseable {
  public static final Duration TTL = Duration.ofSeconds(10);

  public final ManualScheduler scheduler = new ManualScheduler();
  public final InMemoryLeaseService leaseService;
  public final Stores stores;
  public final TestCapabilities capabilities = new TestCapabilities();
  private final CapabilityRegistry registry = capabilities.registry(scheduler);
  private final Map<String, OrchestratorNode> nodes = new LinkedHashMap<>();
  private final Map<String, MetricRegistry> metrics = new LinkedHashMap<>();
  private final Random ids = new Random(42);
  private UnaryOperator<EngineConfig> engineConfig = c -> c;
  private RecoveryConfig recovery = RecoveryConfig.defaults();
  private RebalanceConfig rebalance = RebalanceConfig.off();
  private BiFunction<String, LeaseManager, LeaseManager> leaseWrapper = (nodeId, leases) -> leases;
  private BiFunction<String, Stores, Stores> storesWrapper = (nodeId, shared) -> shared;

  public TestCluster() {
    this(null);
  }

  public TestCluster(Stores stores) {
    this(stores, 0);
  }

  /** A cluster on existing stores whose lease tokens start above {@code initialRevision}. */
  public TestCluster(Stores stores, long initialRevision) {
    this.stores = stores != null ? stores : InMemoryStores.create();
    this.leaseService = new InMemoryLeaseService(scheduler, initialRevision);
  }

  public TestCluster engineConfig(UnaryOperator<EngineConfig> customize) {
    this.engineConfig = customize;
    return this;
  }

  /** Wraps each node's lease manager (to hold back its watch events, say). */
  public TestCluster leases(BiFunction<String, LeaseManager, LeaseManager> wrapper) {
    this.leaseWrapper = wrapper;
    return this;
  }

  /** Wraps each node's view of the shared stores (to cut one node off them, say). */
  public TestCluster stores(BiFunction<String, Stores, Stores> wrapper) {
    this.storesWrapper = wrapper;
    return this;
  }

  public TestCluster rebalance(RebalanceConfig rebalance) {
    this.rebalance = rebalance;
    return this;
  }

  public TestCluster recovery(RecoveryConfig recovery) {
    this.recovery = recovery;
    return this;
  }

  /** Builds and starts a node; returns once it is ready. */
  public OrchestratorNode start(String nodeId) {
    var started = startAsync(nodeId);
    scheduler.runUntil(started::isDone, Duration.ofMinutes(1));
    started.join();
    return nodes.get(nodeId);
  }

  /** Builds a node and starts it; the future completes when it is ready, or fails. */
  public CompletableFuture<Void> startAsync(String nodeId) {
    OrchestratorNode node =
        OrchestratorNode.builder()
            .config(engineConfig.apply(EngineConfig.defaults(nodeId)))
            .recovery(recovery)
            .rebalance(rebalance)
            .scheduler(scheduler)
            .stores(storesWrapper.apply(nodeId, stores))
            .leases(
                leaseWrapper.apply(
                    nodeId, new InMemoryLeaseManager(nodeId, TTL, leaseService, scheduler)))
            .capabilities(registry)
            .flowReader(TestFlows.READER)
            .metrics(metrics.computeIfAbsent(nodeId, id -> new MetricRegistry()))
            .random(new Random(7))
            .ids(() -> new UUID(ids.nextLong(), ids.nextLong()))
            .build();
    nodes.put(nodeId, node);
    return node.start();
  }

  public OrchestratorNode node(String nodeId) {
    return nodes.get(nodeId);
  }

  /** The metrics of the node (of every node started under that id). */
  public MetricRegistry metrics(String nodeId) {
    return metrics.get(nodeId);
  }

  /** Registers a flow through the first node. */
  public Flow apply(Flow flow) {
    OrchestratorNode any = nodes.values().iterator().next();
    any.orchestrator();
    return new FlowRegistry(TestFlows.READER, stores.metadata(), stores.blobs(), scheduler.clock())
        .register(flow);
  }

  /** Runs due work until the condition holds, moving time on as needed (at most {@code limit}). */
  public void runUntil(BooleanSupplier condition, Duration limit) {
    scheduler.runUntil(condition, limit);
  }

  public void runUntil(BooleanSupplier condition) {
    runUntil(condition, Duration.ofMinutes(10));
  }

  /** Runs everything due now. */
  public void settle() {
    scheduler.runDue();
  }

  /** Waits on simulated time for a future of the engine. */
  public <T> T await(CompletableFuture<T> future) {
    runUntil(future::isDone);
    return future.join();
  }

  @Override
  public void close() {
    nodes.values().forEach(n -> n.halt());
    scheduler.runDue();
  }
}

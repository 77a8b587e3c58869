package io.baton.node.testing;

import com.codahale.metrics.MetricRegistry;
import io.baton.capability.Capability;
import io.baton.capability.CapabilityRegistry;
import io.baton.capability.builtin.BuiltInCapabilities;
import io.baton.cluster.OrchestratorNode;
import io.baton.cluster.OrchestratorNodeBuilder;
import io.baton.engine.BatchingEngineIo;
import io.baton.engine.EngineConfig;
import io.baton.flow.FlowParser;
import io.baton.journal.GroupCommitter;
import io.baton.journal.JournalEntry;
import io.baton.journal.StepCompleted;
import io.baton.lease.etcd.EtcdLeaseConfig;
import io.baton.lease.etcd.EtcdLeaseManager;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.Stores;
import io.baton.store.postgres.PostgresStoreConfig;
import io.baton.store.postgres.PostgresStores;
import io.baton.time.SystemScheduler;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * An orchestrator node in the test's JVM on real PostgreSQL and etcd, assembled the way {@code
 * baton node} assembles one: its own scheduler, a PostgreSQL store, an etcd lease manager, the
 * built-in capabilities plus the test's. {@link #close()} halts it and frees all it holds.
 */
public final class RealNode implements AutoCloseable {
  private final OrchestratorNode node;
  private final SystemScheduler scheduler;
  private final Stores stores;

  private RealNode(OrchestratorNode node, SystemScheduler scheduler, Stores stores) {
    this.node = node;
    this.scheduler = scheduler;
    this.stores = stores;
  }

  public static Builder builder(String nodeId) {
    return new Builder(nodeId);
  }

  public OrchestratorNode node() {
    return node;
  }

  /** How many times the run's journal records the step as completed. */
  public long completions(UUID run, String step) {
    List<JournalEntry> entries = stores.journal().readFrom(run, 0, 10_000);
    return entries.stream()
        .filter(e -> e.event() instanceof StepCompleted done && done.step().equals(step))
        .count();
  }

  @Override
  public void close() throws Exception {
    try {
      node.halt().get(30, TimeUnit.SECONDS);
      node.close();
    } finally {
      stores.close();
      scheduler.close();
    }
  }

  /** Settings of one node; what is not set is the engine's default. */
  public static final class Builder {
    private final String nodeId;
    private final List<Capability> capabilities = new ArrayList<>();
    private PostgresStoreConfig store;
    private List<URI> etcd;
    private String cluster;
    private Duration ttl = Duration.ofSeconds(4);
    private EngineConfig engine;
    private RecoveryConfig recovery = RecoveryConfig.defaults();
    private boolean groupCommit;

    private Builder(String nodeId) {
      this.nodeId = nodeId;
      this.engine = EngineConfig.defaults(nodeId);
    }

    public Builder store(PostgresStoreConfig store) {
      this.store = store;
      return this;
    }

    public Builder etcd(List<URI> endpoints, String cluster, Duration ttl) {
      this.etcd = List.copyOf(endpoints);
      this.cluster = cluster;
      this.ttl = ttl;
      return this;
    }

    public Builder engine(EngineConfig engine) {
      this.engine = engine;
      return this;
    }

    public Builder recovery(RecoveryConfig recovery) {
      this.recovery = recovery;
      return this;
    }

    public Builder capability(Capability capability) {
      capabilities.add(capability);
      return this;
    }

    /** Journal through a group committer (256 a batch, 4 lanes), as the node's default I/O. */
    public Builder groupCommit() {
      this.groupCommit = true;
      return this;
    }

    /** Builds the node and starts it; returns once it is ready. */
    public RealNode start() throws Exception {
      SystemScheduler scheduler = new SystemScheduler(nodeId, 2);
      Stores stores = PostgresStores.create(store, Clock.systemUTC());
      CapabilityRegistry.Builder registry =
          BuiltInCapabilities.register(
              CapabilityRegistry.builder(),
              HttpClient.newHttpClient(),
              RealNode.class.getClassLoader());
      capabilities.forEach(registry::register);
      CapabilityRegistry built = registry.build();
      EtcdLeaseManager leases =
          new EtcdLeaseManager(
              EtcdLeaseConfig.builder().endpoints(etcd).cluster(cluster).leaseTtl(ttl).build(),
              nodeId,
              scheduler);
      OrchestratorNodeBuilder node =
          OrchestratorNode.builder()
              .config(engine)
              .recovery(recovery)
              .scheduler(scheduler)
              .stores(stores)
              .leases(leases)
              .capabilities(built)
              .flowReader(new FlowParser(built)::parse)
              .metrics(new MetricRegistry());
      if (groupCommit) {
        node.io(
            (nodeScheduler, journal, lease) ->
                new BatchingEngineIo(
                    new GroupCommitter(journal, 256, Duration.ZERO, 1, nodeId + "-committer"),
                    lease,
                    4));
      }
      OrchestratorNode started = node.build();
      RealNode real = new RealNode(started, scheduler, stores);
      try {
        started.start().get(2, TimeUnit.MINUTES);
      } catch (Exception | Error failure) {
        real.close();
        throw failure;
      }
      return real;
    }
  }
}

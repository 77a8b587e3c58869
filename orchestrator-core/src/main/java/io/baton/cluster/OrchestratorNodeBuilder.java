package io.baton.cluster;

import com.codahale.metrics.MetricRegistry;
import io.baton.capability.CapabilityRegistry;
import io.baton.engine.EngineConfig;
import io.baton.engine.EngineIo;
import io.baton.engine.FlowReader;
import io.baton.engine.SchedulerEngineIo;
import io.baton.event.EventsConfig;
import io.baton.lease.LeaseManager;
import io.baton.recovery.NodeProbe;
import io.baton.recovery.RecoveryConfig;
import io.baton.retention.HousekeepingConfig;
import io.baton.store.Stores;
import io.baton.time.Scheduler;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Builds an {@link OrchestratorNode}; every collaborator is injected so tests and the simulation
 * control them. Not thread-safe; build once.
 */
public final class OrchestratorNodeBuilder {
  EngineConfig config;
  RecoveryConfig recovery = RecoveryConfig.defaults();
  Scheduler scheduler;
  Stores stores;
  LeaseManager leases;
  CapabilityRegistry capabilities;
  FlowReader reader;
  MetricRegistry metrics = new MetricRegistry();
  RandomGenerator random = RandomGenerator.getDefault();
  Supplier<UUID> ids = UUID::randomUUID;
  EngineIo.Factory io = SchedulerEngineIo::new;
  Supplier<String> address = () -> "";
  String version = "";
  NodeProbe nodeProbe = NodeProbe.NONE;
  RebalanceConfig rebalance = RebalanceConfig.off();
  Executor probing;
  boolean ownsStoresAndScheduler;
  EventsConfig events = EventsConfig.DEFAULTS;
  HousekeepingConfig housekeeping = HousekeepingConfig.DEFAULTS;

  public OrchestratorNodeBuilder config(EngineConfig config) {
    this.config = config;
    return this;
  }

  public OrchestratorNodeBuilder recovery(RecoveryConfig recovery) {
    this.recovery = recovery;
    return this;
  }

  public OrchestratorNodeBuilder scheduler(Scheduler scheduler) {
    this.scheduler = scheduler;
    return this;
  }

  public OrchestratorNodeBuilder stores(Stores stores) {
    this.stores = stores;
    return this;
  }

  public OrchestratorNodeBuilder leases(LeaseManager leases) {
    this.leases = leases;
    return this;
  }

  public OrchestratorNodeBuilder capabilities(CapabilityRegistry capabilities) {
    this.capabilities = capabilities;
    return this;
  }

  public OrchestratorNodeBuilder flowReader(FlowReader reader) {
    this.reader = reader;
    return this;
  }

  public OrchestratorNodeBuilder metrics(MetricRegistry metrics) {
    this.metrics = metrics;
    return this;
  }

  public OrchestratorNodeBuilder random(RandomGenerator random) {
    this.random = random;
    return this;
  }

  public OrchestratorNodeBuilder ids(Supplier<UUID> ids) {
    this.ids = ids;
    return this;
  }

  /**
   * Opens the engine's I/O from the node's scheduler, journal and lease manager; default: each call
   * a task of the scheduler ({@link SchedulerEngineIo}).
   */
  public OrchestratorNodeBuilder io(EngineIo.Factory io) {
    this.io = io;
    return this;
  }

  public OrchestratorNodeBuilder address(String address) {
    this.address = () -> address;
    return this;
  }

  /** Where the node's API answers, asked when the node starts (after the API has bound). */
  public OrchestratorNodeBuilder address(Supplier<String> address) {
    this.address = address;
    return this;
  }

  /**
   * How the node's failure detector finds that another node's process is gone (default: it never
   * does, and a dead node's runs wait for its lease's TTL). See {@code FailureDetector}.
   */
  public OrchestratorNodeBuilder nodeProbe(NodeProbe nodeProbe) {
    this.nodeProbe = nodeProbe;
    return this;
  }

  /**
   * {@link #nodeProbe(NodeProbe)} whose probes run on {@code probing} (a probe that may block for
   * its timeout should not hold a scheduler thread); by default they run on the scheduler.
   */
  public OrchestratorNodeBuilder nodeProbe(NodeProbe nodeProbe, Executor probing) {
    this.nodeProbe = nodeProbe;
    this.probing = probing;
    return this;
  }

  /** How the node dispatches events; default {@link EventsConfig#DEFAULTS}. */
  public OrchestratorNodeBuilder events(EventsConfig events) {
    this.events = events;
    return this;
  }

  /**
   * How the node archives journals and deletes finished runs; default {@link
   * HousekeepingConfig#DEFAULTS}.
   */
  public OrchestratorNodeBuilder housekeeping(HousekeepingConfig housekeeping) {
    this.housekeeping = housekeeping;
    return this;
  }

  /** Whether and how the node evens out load with the others (default: off). */
  public OrchestratorNodeBuilder rebalance(RebalanceConfig rebalance) {
    this.rebalance = rebalance;
    return this;
  }

  public OrchestratorNodeBuilder version(String version) {
    this.version = version;
    return this;
  }

  /**
   * Hands the stores and the scheduler to the node: the last two steps of its shutdown order close
   * them, after its I/O. The scheduler must then be {@link AutoCloseable}. By default the caller
   * closes them (tests and the simulation share them between nodes).
   */
  public OrchestratorNodeBuilder ownsStoresAndScheduler() {
    this.ownsStoresAndScheduler = true;
    return this;
  }

  public OrchestratorNode build() {
    require(config, "config");
    require(scheduler, "scheduler");
    require(stores, "stores");
    require(leases, "leases");
    require(capabilities, "capabilities");
    require(reader, "flowReader");
    require(io, "io");
    if (ownsStoresAndScheduler && !(scheduler instanceof AutoCloseable)) {
      throw new IllegalStateException(
          "OrchestratorNode cannot close the scheduler it owns: "
              + scheduler.getClass().getName()
              + " is not AutoCloseable");
    }
    return new OrchestratorNode(this);
  }

  private static void require(Object value, String name) {
    if (value == null) {
      throw new IllegalStateException("OrchestratorNode needs " + name);
    }
  }
}

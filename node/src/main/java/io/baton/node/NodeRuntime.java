package io.baton.node;

import com.codahale.metrics.MetricRegistry;
import io.baton.capability.CapabilityRegistry;
import io.baton.capability.builtin.BuiltInCapabilities;
import io.baton.cluster.OrchestratorNode;
import io.baton.engine.BatchingEngineIo;
import io.baton.engine.EngineIo;
import io.baton.engine.EngineMetrics;
import io.baton.engine.StartupRecoveryFailedException;
import io.baton.flow.FlowParser;
import io.baton.flow.FlowValidationException;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.GroupCommitter;
import io.baton.lease.LeaseManager;
import io.baton.lease.NodeIdInUseException;
import io.baton.node.config.ConfigException;
import io.baton.node.config.NodeConfig;
import io.baton.node.metrics.NodeMetricRegistry;
import io.baton.node.tracing.NodeTracing;
import io.baton.store.Stores;
import io.baton.time.SystemScheduler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running node process: its stores, lease manager, engine and I/O threads, assembled from the
 * configuration. Startup order: the store (with migrations), the lease, startup recovery, then
 * readiness; while the store or etcd cannot be reached, startup waits and retries. A node id that
 * another live process holds stops the startup ({@link NodeIdInUseException}). {@link #stop} drains
 * and releases; {@link #close()} frees everything. Both run steps of the node's one shutdown order
 * ({@link OrchestratorNode}), which owns the stores and the scheduler. Thread-safe.
 */
public final class NodeRuntime implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(NodeRuntime.class);
  private static final Duration RETRY_START = Duration.ofMillis(500);
  private static final Duration RETRY_MAX = Duration.ofSeconds(5);
  private static final int IO_THREADS = 4;
  private static final Duration PROBE_TIMEOUT = Duration.ofMillis(250);

  /** A gauge of 1 whose labels name the version and the node: {@code baton_build_info}. */
  public static final String BUILD_INFO = "baton.build.info";

  private final NodeConfig config;
  private final SystemScheduler scheduler;
  private final MetricRegistry metrics;
  private final Stores stores;
  private final LeaseManager leases;
  private final OrchestratorNode node;
  private final Consumer<String> waitingFor;
  private final Optional<NodeTracing> tracing;
  private volatile String advertisedAddress = "";
  private volatile boolean stopping;

  private NodeRuntime(NodeConfig config, String version, Consumer<String> waitingFor) {
    this.config = config;
    this.waitingFor = waitingFor;
    this.scheduler = new SystemScheduler("node", 2);
    this.metrics = new NodeMetricRegistry();
    metrics.gauge(
        EngineMetrics.labelled(BUILD_INFO, "version", version, "node", config.nodeId()),
        () -> () -> 1);
    Backends.OpenedStores opened =
        waitFor(
            "the store (" + config.store().type() + ")",
            () -> Backends.stores(config.store(), scheduler.clock(), metrics));
    this.stores = opened.stores();
    this.leases = Backends.leases(config, scheduler, opened.highestToken());
    CapabilityRegistry capabilities = BuiltInCapabilities.registry(config.egress());
    int committers = Backends.journalCommitters(config.store().type());
    EngineMetrics observed = new EngineMetrics(metrics);
    this.node =
        OrchestratorNode.builder()
            .config(config.engine())
            .recovery(config.recovery())
            .rebalance(config.rebalance())
            .events(config.events())
            .housekeeping(config.housekeeping())
            .scheduler(scheduler)
            .stores(stores)
            .leases(leases)
            .capabilities(capabilities)
            .flowReader(new FlowParser(capabilities)::parse)
            .metrics(metrics)
            .io((ignored, journal, lease) -> batchedIo(journal, lease, committers, observed))
            .address(() -> advertisedAddress)
            .nodeProbe(new TcpNodeProbe(PROBE_TIMEOUT), TcpNodeProbe.probingThread())
            .version(version)
            .ownsStoresAndScheduler()
            .build();
    this.tracing = NodeTracing.fromEnvironment(System.getenv(), config.nodeId(), version);
    tracing.ifPresent(
        t -> {
          node.engine().addListener(t.tracer());
          node.engine().traceAllRuns(true);
          log.info("node {} sends traces to {}", config.nodeId(), t.endpoint());
        });
  }

  /** Group-committed appends and batched lease calls on threads of their own, observed. */
  private static EngineIo batchedIo(
      ExecutionJournal journal, LeaseManager leases, int committers, EngineMetrics metrics) {
    GroupCommitter committer =
        new GroupCommitter(
            journal,
            GroupCommitter.DEFAULT_MAX_BATCH,
            Duration.ZERO,
            committers,
            "journal-committer");
    metrics.observe(committer);
    return new BatchingEngineIo(committer, leases, IO_THREADS);
  }

  /** Opens the store (waiting while it cannot be reached) and assembles the node, not started. */
  public static NodeRuntime create(NodeConfig config, String version) {
    return create(config, version, what -> {});
  }

  /**
   * As {@link #create(NodeConfig, String)}, telling {@code waitingFor} what it waits for each time
   * a try fails (a health endpoint reports it).
   */
  public static NodeRuntime create(NodeConfig config, String version, Consumer<String> waitingFor) {
    log.info(
        "node {} starting: store {}, lease {}",
        config.nodeId(),
        config.store().type(),
        config.lease().type());
    return new NodeRuntime(config, version, waitingFor);
  }

  /**
   * Grants the lease (waiting while the lease service cannot be reached), re-adopts this node's
   * runs and applies the flows of {@code flows.dir}; returns once the node is ready.
   *
   * @param address where this node's API answers, announced to the other nodes
   * @throws StartupRecoveryFailedException the node could not recover its runs; it released its
   *     lease and cannot start again, so the process should exit non-zero
   * @throws NodeIdInUseException another live process runs with this node id: fatal, not retried
   */
  public void start(String address) {
    this.advertisedAddress = address;
    waitFor(
        "the lease service (" + config.lease().type() + ")",
        () -> {
          node.start().join();
          return null;
        });
    applyFlows();
  }

  /**
   * Retries {@code action} with back-off until it succeeds (a dead store or etcd: wait, do not
   * die).
   */
  private <T> T waitFor(String what, Supplier<T> action) {
    Duration wait = RETRY_START;
    while (true) {
      try {
        return action.get();
      } catch (RuntimeException failure) {
        if (failure.getCause() instanceof StartupRecoveryFailedException fatal) {
          throw fatal;
        }
        NodeIdInUseException inUse = idInUse(failure);
        if (inUse != null) {
          throw inUse; // waiting would not help: the other process renews its lease
        }
        if (stopping
            || failure instanceof ConfigException
            || failure.getCause() instanceof FlowValidationException) {
          throw failure;
        }
        log.warn("waiting for {}: {}; retrying in {}", what, rootMessage(failure), wait);
        waitingFor.accept(what + ": " + rootMessage(failure));
        sleep(wait);
        wait = wait.multipliedBy(2).compareTo(RETRY_MAX) > 0 ? RETRY_MAX : wait.multipliedBy(2);
      }
    }
  }

  private static NodeIdInUseException idInUse(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof NodeIdInUseException inUse) {
        return inUse;
      }
    }
    return null;
  }

  private static String rootMessage(Throwable failure) {
    Throwable cause = failure;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause == failure ? failure.toString() : failure.getMessage() + " (" + cause + ")";
  }

  private static void sleep(Duration wait) {
    try {
      Thread.sleep(wait.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting", e);
    }
  }

  private void applyFlows() {
    Path dir = config.flowsDir();
    if (dir == null) {
      return;
    }
    if (!Files.isDirectory(dir)) {
      throw new ConfigException("flows.dir " + dir + " is not a directory");
    }
    for (Path file : flowFiles(dir)) {
      try {
        var flow = node.orchestrator().applyFlow(Files.readString(file), file.toString());
        log.info("applied flow {} ({}) from {}", flow.name(), flow.hash().substring(0, 12), file);
      } catch (IOException e) {
        throw new ConfigException("cannot read flow file " + file + ": " + e.getMessage());
      }
    }
  }

  private static List<Path> flowFiles(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().matches(".*\\.(ya?ml|json)$")).sorted().toList();
    } catch (IOException e) {
      throw new ConfigException("cannot list flows.dir " + dir + ": " + e.getMessage());
    }
  }

  /** The node's clock: the one its scheduler keeps time with. */
  Clock clock() {
    return scheduler.clock();
  }

  public NodeConfig config() {
    return config;
  }

  public OrchestratorNode node() {
    return node;
  }

  public MetricRegistry metrics() {
    return metrics;
  }

  /**
   * The graceful stop: the node's hand-off (drain, journal what finished, release every lease in
   * one call), waited for with a bound.
   */
  public void stop() {
    stopping = true;
    node.drainAndWait();
  }

  /** Skips the drain: releases every lease now (a second signal). */
  public void releaseNow() {
    stopping = true;
    log.warn("node {}: second signal, releasing all runs without draining", config.nodeId());
    leases.releaseAll();
  }

  /** The rest of the node's shutdown order; the node owns the stores and the scheduler. */
  @Override
  public void close() {
    stopping = true;
    node.close();
    tracing.ifPresent(t -> t.close(scheduler.clock().instant()));
  }
}

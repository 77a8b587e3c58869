package io.baton.node.bench;

import com.codahale.metrics.MetricRegistry;
import io.baton.capability.Capability;
import io.baton.capability.CapabilityRegistry;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import io.baton.capability.builtin.BuiltInCapabilities;
import io.baton.cluster.OrchestratorNode;
import io.baton.cluster.RebalanceConfig;
import io.baton.engine.BatchingEngineIo;
import io.baton.engine.EngineConfig;
import io.baton.engine.EngineIo;
import io.baton.engine.EngineMetrics;
import io.baton.flow.FlowParser;
import io.baton.journal.GroupCommitter;
import io.baton.lease.etcd.EtcdLeaseConfig;
import io.baton.lease.etcd.EtcdLeaseManager;
import io.baton.lease.etcd.EtcdTestCluster;
import io.baton.node.TcpNodeProbe;
import io.baton.recovery.RecoveryConfig;
import io.baton.retention.HousekeepingConfig;
import io.baton.store.Stores;
import io.baton.store.postgres.PostgresStores;
import io.baton.store.postgres.testkit.TestDatabase;
import io.baton.time.SystemScheduler;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Nodes for the benchmarks on real services: one etcd member started for the benchmark, one fresh
 * database on the machine's PostgreSQL, each node with its own pool, etcd client, group committer
 * and threads, as a node process has.
 */
final class BenchCluster implements AutoCloseable {
  final EtcdTestCluster etcd = EtcdTestCluster.start(1);
  final TestDatabase database = TestDatabase.create("bench");
  private final String cluster = "bench-" + System.nanoTime();
  private final Map<OrchestratorNode, AutoCloseable> closing = new LinkedHashMap<>();
  private final HousekeepingConfig housekeeping;
  private final IoDecorator io;

  /** Wraps a node's I/O, to observe the calls its engine makes (which claims took a lease). */
  @FunctionalInterface
  interface IoDecorator {
    EngineIo decorate(String nodeId, EngineIo io);
  }

  /** Nodes with the default archive and retention settings and their I/O as a node has it. */
  BenchCluster() {
    this(HousekeepingConfig.DEFAULTS, (nodeId, io) -> io);
  }

  BenchCluster(HousekeepingConfig housekeeping, IoDecorator io) {
    this.housekeeping = housekeeping;
    this.io = io;
  }

  /**
   * A node, and a socket standing for its API port: the others' failure detectors probe it, so
   * closing it is what a killed process looks like from outside, and leaving it open while the node
   * stops is what a paused one looks like.
   */
  record Node(OrchestratorNode node, MetricRegistry metrics, Stores stores, ServerSocket api) {
    /** As {@code kill -9}: the node stops at once and its port refuses connections. */
    void kill() throws Exception {
      node.halt().get(30, TimeUnit.SECONDS);
      api.close();
    }

    /** As SIGSTOP: the node stops at once, and its port is still bound (nobody accepts). */
    void pause() throws Exception {
      node.halt().get(30, TimeUnit.SECONDS);
    }
  }

  Node start(
      String nodeId,
      Duration ttl,
      List<Capability> extra,
      UnaryOperator<EngineConfig> engine,
      RecoveryConfig recovery)
      throws Exception {
    return start(nodeId, ttl, extra, engine, recovery, RebalanceConfig.off());
  }

  Node start(
      String nodeId,
      Duration ttl,
      List<Capability> extra,
      UnaryOperator<EngineConfig> engine,
      RecoveryConfig recovery,
      RebalanceConfig rebalance)
      throws Exception {
    SystemScheduler scheduler = new SystemScheduler(nodeId, 2);
    Stores stores =
        PostgresStores.create(database.config().maxPoolSize(8).build(), Clock.systemUTC());
    CapabilityRegistry.Builder builder =
        BuiltInCapabilities.register(
            CapabilityRegistry.builder(), HttpClient.newHttpClient(), getClass().getClassLoader());
    extra.forEach(builder::register);
    CapabilityRegistry capabilities = builder.build();
    EtcdLeaseManager leases =
        new EtcdLeaseManager(
            EtcdLeaseConfig.builder()
                .endpoints(etcd.endpoints())
                .cluster(cluster)
                .leaseTtl(ttl)
                .build(),
            nodeId,
            scheduler);
    MetricRegistry metrics = new MetricRegistry();
    ServerSocket api = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    OrchestratorNode node =
        OrchestratorNode.builder()
            .config(engine.apply(EngineConfig.defaults(nodeId)))
            .recovery(recovery)
            .rebalance(rebalance)
            .housekeeping(housekeeping)
            .scheduler(scheduler)
            .stores(stores)
            .leases(leases)
            .capabilities(capabilities)
            .flowReader(new FlowParser(capabilities)::parse)
            .metrics(metrics)
            .address("127.0.0.1:" + api.getLocalPort())
            .nodeProbe(new TcpNodeProbe(Duration.ofMillis(250)), TcpNodeProbe.probingThread())
            .io(
                (nodeScheduler, journal, lease) -> {
                  GroupCommitter committer =
                      new GroupCommitter(
                          journal,
                          256,
                          Duration.ZERO,
                          Integer.getInteger("baton.bench.committers", 2),
                          nodeId + "-committer");
                  new EngineMetrics(metrics).observe(committer);
                  return io.decorate(
                      nodeId,
                      new BatchingEngineIo(
                          committer, lease, Integer.getInteger("baton.bench.ioThreads", 4)));
                })
            .build();
    node.start().get(5, TimeUnit.MINUTES);
    closing.put(
        node,
        () -> {
          node.halt().get(30, TimeUnit.SECONDS);
          node.close();
          stores.close();
          scheduler.close();
          api.close();
        });
    return new Node(node, metrics, stores, api);
  }

  /**
   * Stops a node for good (halted if it still runs) and closes its pool, etcd client and threads
   * now, not when the cluster closes: a benchmark that replaces nodes again and again would hold a
   * pool of connections for each otherwise.
   */
  void retire(Node retired) {
    AutoCloseable resources = closing.remove(retired.node());
    if (resources != null) {
      closeQuietly(resources);
    }
  }

  @Override
  public void close() throws Exception {
    List<AutoCloseable> newestFirst = new ArrayList<>(closing.values());
    Collections.reverse(newestFirst);
    newestFirst.forEach(BenchCluster::closeQuietly);
    closing.clear();
    database.close();
    etcd.close();
  }

  /** The first row of a query on the benchmark's database, every column a number. */
  long[] row(String sql, Object... params) throws SQLException {
    try (Connection connection = database.connect();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        statement.setObject(i + 1, params[i]);
      }
      try (ResultSet result = statement.executeQuery()) {
        result.next();
        long[] row = new long[result.getMetaData().getColumnCount()];
        for (int i = 0; i < row.length; i++) {
          row[i] = result.getLong(i + 1);
        }
        return row;
      }
    }
  }

  /** Runs a statement on the benchmark's database, outside a transaction. */
  void execute(String sql) throws SQLException {
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  /** A capability called {@code name} that answers each invocation with {@code invoke}. */
  static Capability capability(
      String name, Function<Invocation, CompletionStage<StepOutcome>> invoke) {
    return new Capability() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public CompletionStage<StepOutcome> invoke(Invocation invocation) {
        return invoke.apply(invocation);
      }
    };
  }

  private static void closeQuietly(AutoCloseable resource) {
    try {
      resource.close();
    } catch (Exception e) {
      System.err.println("closing: " + e);
    }
  }
}

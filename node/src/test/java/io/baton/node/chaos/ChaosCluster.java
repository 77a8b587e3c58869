package io.baton.node.chaos;

import io.baton.lease.etcd.EtcdTestCluster;
import io.baton.lease.etcd.LoopbackProxy;
import io.baton.node.process.BatonProcess;
import io.baton.node.process.ProcessTestSupport;
import io.baton.store.postgres.testkit.PrivatePostgresCluster;
import io.baton.store.postgres.testkit.TestDatabase;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.IntStream;

/**
 * The processes of a chaos run, all on loopback: a private PostgreSQL server ({@code initdb} +
 * {@code pg_ctl}, so it can be restarted without touching the machine's shared server), etcd with
 * three members, a TCP proxy in front of PostgreSQL per node (to cut one node's database alone),
 * and N {@code baton node} processes with stable ids and ports. Every process a node index has run
 * is an incarnation, kept for its log and its metrics. Driven by one thread.
 */
final class ChaosCluster implements AutoCloseable {
  static final int ETCD_MEMBERS = 3;
  private static final Duration DRAIN = Duration.ofSeconds(2);
  private static final Duration READY_WITHIN = Duration.ofMinutes(3);

  /** One process a node index ran: {@code node-1#2} is node-1's second process. */
  record Incarnation(int node, int number, BatonProcess process) {
    String name() {
      return nodeId(node) + "#" + number;
    }
  }

  private final ChaosOptions options;
  private final PrivatePostgresCluster postgres;
  private final TestDatabase database;
  private final EtcdTestCluster etcd;
  private final List<LoopbackProxy> databaseProxies = new ArrayList<>();
  private final int[] ports;
  private final AtomicReferenceArray<Incarnation> current;
  private final List<Incarnation> incarnations = new CopyOnWriteArrayList<>();
  private final Path workDir;
  private final String cluster = "chaos-" + System.nanoTime();

  private ChaosCluster(
      ChaosOptions options,
      PrivatePostgresCluster postgres,
      TestDatabase database,
      EtcdTestCluster etcd,
      Path workDir)
      throws Exception {
    this.options = options;
    this.postgres = postgres;
    this.database = database;
    this.etcd = etcd;
    this.workDir = workDir;
    this.ports = new int[options.nodes()];
    this.current = new AtomicReferenceArray<>(options.nodes());
    URI server = URI.create("postgresql://127.0.0.1:" + postgres.port());
    for (int i = 0; i < options.nodes(); i++) {
      ports[i] = ProcessTestSupport.freePort();
      databaseProxies.add(new LoopbackProxy(server));
    }
  }

  /** Starts every process and waits until every node is ready. */
  static ChaosCluster start(ChaosOptions options) throws Exception {
    PrivatePostgresCluster postgres = PrivatePostgresCluster.create("max_connections=200");
    ChaosCluster cluster = null;
    try {
      TestDatabase database = postgres.createDatabase("chaos");
      EtcdTestCluster etcd = EtcdTestCluster.start(ETCD_MEMBERS);
      cluster =
          new ChaosCluster(options, postgres, database, etcd, ProcessTestSupport.workDir(Map.of()));
      for (int i = 0; i < options.nodes(); i++) {
        cluster.startNode(i);
      }
      for (int i = 0; i < options.nodes(); i++) {
        cluster.awaitReady(i);
      }
      return cluster;
    } catch (Exception | Error failure) {
      if (cluster != null) {
        cluster.close();
      } else {
        postgres.close();
      }
      throw failure;
    }
  }

  static String nodeId(int index) {
    return "node-" + index;
  }

  int nodes() {
    return options.nodes();
  }

  String api(int node) {
    return "http://127.0.0.1:" + ports[node];
  }

  Incarnation incarnation(int node) {
    return current.get(node);
  }

  /** Every process any node ran, oldest first. */
  List<Incarnation> incarnations() {
    return List.copyOf(incarnations);
  }

  EtcdTestCluster etcd() {
    return etcd;
  }

  PrivatePostgresCluster postgres() {
    return postgres;
  }

  /** A direct connection to the run's database (no proxy), for reading the evidence. */
  Connection connect() throws SQLException {
    return database.connect();
  }

  /** Starts a new process for node {@code index}: same id, same port, a new incarnation. */
  void startNode(int index) throws Exception {
    Map<String, String> env =
        ProcessTestSupport.clusterNodeEnv(
            nodeId(index), ports[index], database, etcd, cluster, DRAIN);
    env.put(
        "BATON_STORE_URL",
        "jdbc:postgresql://127.0.0.1:"
            + databaseProxies.get(index).uri().getPort()
            + "/"
            + database.name()
            + "?sslmode=disable");
    env.put("BATON_LEASE_TTL", options.leaseTtl().toMillis() + "ms");
    env.put("BATON_RECOVERY_STORE_OUTAGE_HANDOFF", options.storeOutageHandoff().toMillis() + "ms");
    int number = (int) incarnations.stream().filter(i -> i.node() == index).count() + 1;
    Incarnation started = new Incarnation(index, number, BatonProcess.start(workDir, env, "node"));
    incarnations.add(started);
    current.set(index, started);
  }

  void awaitReady(int index) {
    current.get(index).process().awaitReady(api(index), READY_WITHIN);
  }

  /** Whether every node answers ready now. */
  boolean allReady() {
    return IntStream.range(0, nodes()).allMatch(this::ready);
  }

  boolean ready(int index) {
    Incarnation node = current.get(index);
    return node.process().isAlive() && BatonProcess.status(api(index) + "/health/ready") == 200;
  }

  void cutDatabase(int node) {
    databaseProxies.get(node).cut();
  }

  void restoreDatabase(int node) {
    databaseProxies.get(node).restore();
  }

  /** Stops every node with SIGTERM (bounded), then the services. */
  @Override
  public void close() {
    for (int i = 0; i < current.length(); i++) {
      Incarnation node = current.get(i);
      if (node != null && node.process().isAlive()) {
        node.process().terminate();
      }
    }
    for (Incarnation node : incarnations) {
      try {
        node.process().awaitExit(Duration.ofSeconds(30));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (IllegalStateException stillRunning) {
        // killed below
      }
      node.process().close();
    }
    databaseProxies.forEach(LoopbackProxy::close);
    etcd.close();
    try {
      database.close();
    } finally {
      postgres.close();
    }
  }
}

package io.baton.node.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Strikes one planned fault on the cluster, holds it, heals it, and waits (bounded) until every
 * node is ready again. What goes wrong on the harness's side (a node that never comes back, a
 * SIGTERM that does not exit 0) is kept as a finding, not thrown: the run goes on and the verdict
 * reports it.
 */
final class FaultInjector {
  private static final Logger log = LoggerFactory.getLogger(FaultInjector.class);
  private static final Duration HEALED_WITHIN = Duration.ofMinutes(3);
  private static final Duration EXIT_WITHIN = Duration.ofSeconds(60);

  private final ChaosCluster cluster;
  private final FenceWatch fences;
  private final List<String> findings = new CopyOnWriteArrayList<>();

  FaultInjector(ChaosCluster cluster, FenceWatch fences) {
    this.cluster = cluster;
    this.fences = fences;
  }

  List<String> findings() {
    return List.copyOf(findings);
  }

  InjectedFault inject(PlannedFault fault) throws Exception {
    int node = fault.target();
    String victim = fault.kind().strikesNode() ? ChaosCluster.nodeId(node) : null;
    log.info("chaos: {} on {} for {}", fault.kind().label(), fault.describe(), fault.hold());
    Instant injectedAt;
    switch (fault.kind()) {
      case KILL -> {
        fences.scrape(node);
        injectedAt = Instant.now();
        cluster.incarnation(node).process().kill();
        cluster.incarnation(node).process().awaitExit(EXIT_WITHIN);
        hold(fault);
        cluster.startNode(node);
      }
      case PAUSE_PAST_TTL -> {
        injectedAt = Instant.now();
        cluster.incarnation(node).process().signal("STOP");
        hold(fault);
        cluster.incarnation(node).process().signal("CONT");
      }
      case SIGTERM_RESTART -> {
        fences.scrape(node);
        injectedAt = Instant.now();
        cluster.incarnation(node).process().terminate();
        int exit = cluster.incarnation(node).process().awaitExit(EXIT_WITHIN);
        if (exit != 0) {
          findings.add(cluster.incarnation(node).name() + " exited " + exit + " on SIGTERM");
        }
        hold(fault);
        cluster.startNode(node);
      }
      case ETCD_MEMBER_KILL -> {
        injectedAt = Instant.now();
        cluster.etcd().kill(node);
        hold(fault);
        cluster.etcd().restart(node);
      }
      case ETCD_LEADER_PAUSE -> {
        int leader = cluster.etcd().leader();
        injectedAt = Instant.now();
        cluster.etcd().pause(leader);
        hold(fault);
        cluster.etcd().resume(leader);
      }
      case POSTGRES_RESTART -> {
        injectedAt = Instant.now();
        cluster.postgres().stop(fault.variant() ? "immediate" : "fast");
        hold(fault);
        cluster.postgres().start();
      }
      case DB_CUT_ONE_NODE -> {
        injectedAt = Instant.now();
        cluster.cutDatabase(node);
        hold(fault);
        cluster.restoreDatabase(node);
      }
      default -> throw new IllegalStateException("no injector for " + fault.kind());
    }
    Instant healedAt = Instant.now();
    Instant readyAt = awaitReady(fault);
    return new InjectedFault(fault, victim, injectedAt, healedAt, readyAt);
  }

  private static void hold(PlannedFault fault) throws InterruptedException {
    Thread.sleep(fault.hold().toMillis());
  }

  /** A node that exited on its own is a finding; it is started again, as a supervisor would. */
  private void restartExited() throws Exception {
    for (int i = 0; i < cluster.nodes(); i++) {
      ChaosCluster.Incarnation node = cluster.incarnation(i);
      if (!node.process().isAlive()) {
        findings.add(
            node.name() + " exited on its own with " + node.process().awaitExit(EXIT_WITHIN));
        cluster.startNode(i);
      }
    }
  }

  /** When every node answered ready again, or null (a finding) when not within the bound. */
  private Instant awaitReady(PlannedFault fault) throws Exception {
    long deadline = System.nanoTime() + HEALED_WITHIN.toNanos();
    while (System.nanoTime() < deadline) {
      if (cluster.allReady()) {
        return Instant.now();
      }
      restartExited();
      Thread.sleep(100);
    }
    findings.add(
        "the cluster was not ready within " + HEALED_WITHIN + " of healing " + fault.kind());
    return null;
  }
}

package io.baton.node.chaos;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * The faults {@code baton chaos} injects, each with how long it holds (drawn from the run's seeded
 * random source) and whether it strikes one node, whose runs others must then adopt.
 */
enum FaultKind {
  /** {@code kill -9} of a node, started again after the hold. */
  KILL("kill -9", true),
  /** SIGSTOP past the lease TTL, then SIGCONT: the node wakes up a zombie. */
  PAUSE_PAST_TTL("SIGSTOP past TTL", true),
  /** SIGTERM (a drain and hand-off), then the node is started again. */
  SIGTERM_RESTART("SIGTERM + restart", true),
  /** One etcd member killed and restarted. */
  ETCD_MEMBER_KILL("etcd member kill", false),
  /** The etcd leader paused with SIGSTOP, then SIGCONT. */
  ETCD_LEADER_PAUSE("etcd leader pause", false),
  /** The private PostgreSQL server stopped (fast or immediate) and started again. */
  POSTGRES_RESTART("PostgreSQL restart", false),
  /** One node's database connections cut by its proxy; it must stand down, others adopt. */
  DB_CUT_ONE_NODE("one node's DB cut", true);

  private final String label;
  private final boolean strikesNode;

  FaultKind(String label, boolean strikesNode) {
    this.label = label;
    this.strikesNode = strikesNode;
  }

  String label() {
    return label;
  }

  /** Whether the fault strikes one node, so that latency means its runs' adoption. */
  boolean strikesNode() {
    return strikesNode;
  }

  /** How long the fault holds before it is healed. */
  Duration hold(RandomGenerator random, ChaosOptions options) {
    return switch (this) {
      case KILL -> seconds(random, 2, 5);
      case PAUSE_PAST_TTL -> options.leaseTtl().plus(seconds(random, 1, 3));
      case SIGTERM_RESTART -> seconds(random, 0, 2);
      case ETCD_MEMBER_KILL -> seconds(random, 2, 6);
      case ETCD_LEADER_PAUSE -> seconds(random, 1, 4);
      case POSTGRES_RESTART -> seconds(random, 1, 4);
      case DB_CUT_ONE_NODE -> options.storeOutageHandoff().plus(seconds(random, 2, 5));
    };
  }

  private static Duration seconds(RandomGenerator random, int from, int to) {
    return Duration.ofMillis(random.nextLong(from * 1000L, to * 1000L + 1));
  }
}

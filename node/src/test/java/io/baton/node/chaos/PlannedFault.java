package io.baton.node.chaos;

import java.time.Duration;

/**
 * One fault of the seeded schedule: what, on which node or etcd member, for how long, and the quiet
 * time after it heals before the next one. {@code variant} chooses between forms of the same fault
 * (PostgreSQL stopped fast or immediate).
 */
record PlannedFault(FaultKind kind, int target, Duration hold, Duration gapAfter, boolean variant) {
  /** What it strikes, for the report. */
  String describe() {
    return switch (kind) {
      case KILL, PAUSE_PAST_TTL, SIGTERM_RESTART, DB_CUT_ONE_NODE -> ChaosCluster.nodeId(target);
      case ETCD_MEMBER_KILL -> "etcd member m" + target;
      case ETCD_LEADER_PAUSE -> "the etcd leader";
      case POSTGRES_RESTART -> variant ? "stop -m immediate" : "stop -m fast";
    };
  }
}

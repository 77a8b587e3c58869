package io.baton.node.chaos;

import java.time.Duration;
import java.time.Instant;

/**
 * A fault as it happened: the plan, when it struck, when it was healed, and when the cluster was
 * ready again (every node answering ready; null if it never was within the bound). {@code victim}
 * is the node id it struck, null for etcd and PostgreSQL faults.
 */
record InjectedFault(
    PlannedFault planned, String victim, Instant injectedAt, Instant healedAt, Instant readyAt) {

  /** From the strike until every node was ready again; null if it never was. */
  Duration untilReady() {
    return readyAt == null ? null : Duration.between(injectedAt, readyAt);
  }
}

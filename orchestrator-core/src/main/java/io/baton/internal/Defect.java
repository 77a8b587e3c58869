package io.baton.internal;

import java.util.EnumSet;
import java.util.Set;

/**
 * Deliberate defects, one per recovery rule, that tests switch on to show that the cluster
 * simulation's oracle catches each of them, the way a journal that skips the fence check is caught.
 * Each one undoes exactly one fix at the place the fix lives. All are off unless a test switches
 * one on; nothing outside tests does. Thread-safe.
 */
public enum Defect {
  /** The recovery policy settles every RUNNING tree it adopts, even one handed over quietly. */
  POLICY_ON_EVERY_ADOPTION,
  /** Trees whose recovery policy needs it do not journal their steps' starts. */
  NO_START_MARKERS,
  /** A tree keeps executing after its root was journaled WAITING, without waking it first. */
  EXECUTE_WHILE_PARKED,
  /** Signals are not deleted when their tree finishes or leaves the node. */
  SIGNALS_LEAK,
  /** One root that cannot be loaded fails its whole claim batch, and is picked again every pass. */
  NO_POISON_ISOLATION,
  /** Peers claim every RUNNING run recorded as a departed node's, even those of its next lease. */
  CLAIMS_ACROSS_LEASES,
  /** A claim or submit that completes after the lease was lost is adopted all the same. */
  ADOPT_AFTER_LOST,
  /** Submissions may fill the whole node, leaving no room to wake or re-claim runs. */
  NO_RECOVERY_RESERVE,
  /**
   * The failure detector takes a probe without evidence (a timeout: a paused or partitioned node)
   * for a death, and revokes the lease of a node whose process is alive.
   */
  UNKNOWN_IS_DEATH,
  /** A tree being let go to another node (rebalancing) leaves with a step still in flight. */
  LET_GO_MID_STEP,
  /**
   * A signal that finds nothing to answer while the tree's append is unacknowledged is deleted as
   * stale, although the journal its sender read may be ahead of the tree's state.
   */
  STALE_SIGNALS_WHILE_LAGGING,
  /**
   * A run a draining node stored PENDING waits for a peer's periodic pass, not for the drained
   * node's departure.
   */
  PENDING_WAITS_FOR_PASS,
  /** A node that stores a submission PENDING does not tell the others (no pending hint). */
  PENDING_UNHINTED,
  /**
   * Runs let go to a receiver that never claimed them come back only through the scan of this
   * node's own runs, whose window of the oldest misses them on a node with many runs.
   */
  LET_GO_FOUND_BY_SCAN;

  private static volatile Set<Defect> active = EnumSet.noneOf(Defect.class);

  public boolean isActive() {
    return active.contains(this);
  }

  /** Switches this defect on until {@link #repair()}; for tests. */
  public synchronized void inject() {
    Set<Defect> next = EnumSet.noneOf(Defect.class);
    next.addAll(active);
    next.add(this);
    active = next;
  }

  /** Switches every defect off. */
  public static synchronized void repair() {
    active = EnumSet.noneOf(Defect.class);
  }
}

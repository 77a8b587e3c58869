package io.baton.lease;

import java.util.Map;

/**
 * How busy a node said it was, announced with its node info.
 *
 * @param activeRuns the run trees it executes (parked runs are not counted: they need no node)
 * @param stepsPerSecond steps it completed per second over its last full measuring window (one
 *     rebalancing interval); 0 when unknown: it has not held its runs for a whole window yet, or
 *     their number changed by more than the rebalancing band within it (runs that just moved in
 *     have not reached a step boundary here, so their pace cannot be seen yet)
 * @param accepting whether it takes runs from others (false while draining or standing down); a
 *     node that has not reported is not counted by the rebalancer
 * @param claims runs it claimed since it started (every reason), so that an operator sees who
 *     adopted what without scraping each node's metrics
 * @param fencedOutWrites journal appends the store refused since it started because another node
 *     had claimed the run: a node whose count grows wrote after it lost runs
 * @param coolingDown of its active runs, those moved to it by rebalancing less than the cool-down
 *     ago: they count in its load but it cannot give them away yet
 * @param outgoing runs its rebalancing round in progress means to give and that have not left yet,
 *     by receiver: they still count in {@code activeRuns}, and a node that plans meanwhile counts
 *     them where they are going (empty between rounds)
 */
public record NodeLoad(
    int activeRuns,
    double stepsPerSecond,
    boolean accepting,
    long claims,
    long fencedOutWrites,
    int coolingDown,
    Map<String, Integer> outgoing) {
  /** No report yet. */
  public static final NodeLoad UNKNOWN = new NodeLoad(0, 0, false);

  /** A load without counts (nodes of a version that did not announce them). */
  public NodeLoad(int activeRuns, double stepsPerSecond, boolean accepting) {
    this(activeRuns, stepsPerSecond, accepting, 0, 0, 0, Map.of());
  }

  public NodeLoad {
    outgoing = outgoing == null ? Map.of() : Map.copyOf(outgoing);
  }

  /** Runs it could give away now: its active runs but those still cooling down. */
  public int movable() {
    return Math.max(0, activeRuns - coolingDown);
  }
}

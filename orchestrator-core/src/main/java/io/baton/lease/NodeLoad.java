package io.baton.lease;

/**
 * How busy a node said it was, announced with its node info.
 *
 * @param activeRuns the run trees it executes (parked runs are not counted: they need no node)
 * @param stepsPerSecond steps it completed per second since its previous announcement
 * @param accepting whether it takes runs from others (false while draining or standing down); a
 *     node that has not reported is not counted by the rebalancer
 * @param claims runs it claimed since it started (every reason), so that an operator sees who
 *     adopted what without scraping each node's metrics
 * @param fencedOutWrites journal appends the store refused since it started because another node
 *     had claimed the run: a node whose count grows wrote after it lost runs
 */
public record NodeLoad(
    int activeRuns, double stepsPerSecond, boolean accepting, long claims, long fencedOutWrites) {
  /** No report yet. */
  public static final NodeLoad UNKNOWN = new NodeLoad(0, 0, false);

  /** A load without counts (nodes of a version that did not announce them). */
  public NodeLoad(int activeRuns, double stepsPerSecond, boolean accepting) {
    this(activeRuns, stepsPerSecond, accepting, 0, 0);
  }
}

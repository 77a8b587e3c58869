package io.baton.lease;

/**
 * How busy a node said it was, announced with its node info.
 *
 * @param activeRuns the run trees it executes (parked runs are not counted: they need no node)
 * @param stepsPerSecond steps it completed per second since its previous announcement
 * @param accepting whether it takes runs from others (false while draining or standing down); a
 *     node that has not reported is not counted by the rebalancer
 */
public record NodeLoad(int activeRuns, double stepsPerSecond, boolean accepting) {
  /** No report yet. */
  public static final NodeLoad UNKNOWN = new NodeLoad(0, 0, false);
}

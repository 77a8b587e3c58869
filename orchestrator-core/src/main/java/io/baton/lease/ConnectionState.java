package io.baton.lease;

/**
 * How a node stands with the lease service, as its {@link LeaseManager} sees it.
 *
 * <ul>
 *   <li>CONNECTED: the node lease was renewed within the renew deadline; the node may start steps.
 *   <li>SUSPENDED: renewal has failed for longer than the renew deadline but the lease may still be
 *       alive; the node starts no new steps until it is CONNECTED again (self-fencing), before any
 *       other node could claim its runs.
 *   <li>LOST: the lease has expired (or the service said so); every run key went with it. The node
 *       drops its runs; the manager grants a fresh lease and becomes CONNECTED again.
 * </ul>
 */
public enum ConnectionState {
  CONNECTED,
  SUSPENDED,
  LOST;

  public boolean mayStartWork() {
    return this == CONNECTED;
  }
}

/**
 * The lease SPI: {@link io.baton.lease.LeaseManager} grants the node's lease, acquires run keys
 * whose revisions are fencing tokens, reports the node's {@link io.baton.lease.ConnectionState} and
 * pushes orphaned runs. {@link io.baton.lease.LeaseKeeper} computes connection states the same way
 * for every implementation.
 */
package io.baton.lease;

package io.baton.sim;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Which lease each fencing token came from, identified by the lease's node token: a node token is
 * its own lease, a run key belongs to the lease its node held when it acquired the key. Lets the
 * oracle ask whether the lease behind a token is still alive. Single-threaded, like the simulation.
 */
final class LeaseLedger {
  private final Map<Long, Long> leaseOfToken = new HashMap<>();

  void nodeToken(long token) {
    leaseOfToken.put(token, token);
  }

  void runKey(long token, long nodeToken) {
    leaseOfToken.put(token, nodeToken);
  }

  /** The node token of the lease that issued {@code token}, if the ledger saw it issued. */
  OptionalLong leaseOf(long token) {
    Long lease = leaseOfToken.get(token);
    return lease == null ? OptionalLong.empty() : OptionalLong.of(lease);
  }
}

package io.baton.journal;

import java.util.Objects;

/**
 * A node took ownership of a run tree (journaled on the root run). An append that carries this
 * event with the request's own token raises the journal's fence to that token, so from then on an
 * older owner can no longer append.
 *
 * @param previousNode the node recorded as owner before, or null
 */
public record RunClaimed(String node, long token, String previousNode, ClaimReason reason)
    implements JournalEvent {
  public RunClaimed {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(reason, "reason");
    if (token <= 0) {
      throw new IllegalArgumentException("a claim's fencing token must be positive: " + token);
    }
  }
}

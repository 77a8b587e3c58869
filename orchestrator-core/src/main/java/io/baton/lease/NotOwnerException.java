package io.baton.lease;

import java.util.UUID;

/** A node tried to release a run's lease that another node holds. */
public class NotOwnerException extends LeaseException {
  private final String owner;

  public NotOwnerException(UUID runId, String nodeId, String owner) {
    super(
        "node " + nodeId + " cannot release run " + runId + ": it is owned by " + owner,
        runId,
        nodeId,
        null);
    this.owner = owner;
  }

  public String owner() {
    return owner;
  }
}

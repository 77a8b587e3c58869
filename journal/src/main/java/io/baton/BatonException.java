package io.baton;

import java.util.Optional;
import java.util.UUID;

/**
 * The one unchecked root of every exception Baton throws on purpose. Families (journal, lease,
 * store, flow) extend it; leaves are named after the action that failed and carry the run and node
 * they concern when there is one.
 */
public class BatonException extends RuntimeException {
  private final UUID runId;
  private final String nodeId;

  public BatonException(String message) {
    this(message, null, null, null);
  }

  public BatonException(String message, Throwable cause) {
    this(message, null, null, cause);
  }

  public BatonException(String message, UUID runId, String nodeId, Throwable cause) {
    super(message, cause);
    this.runId = runId;
    this.nodeId = nodeId;
  }

  /** The run this failure concerns, when it concerns one. */
  public Optional<UUID> runId() {
    return Optional.ofNullable(runId);
  }

  /** The node this failure concerns, when it concerns one. */
  public Optional<String> nodeId() {
    return Optional.ofNullable(nodeId);
  }
}

package io.baton.lease;

/**
 * The lease service could not be reached, or the node has no live lease (SUSPENDED, LOST, or not
 * started). Retryable: the caller waits and tries again.
 */
public class LeaseUnavailableException extends LeaseException {
  public LeaseUnavailableException(String message, String nodeId, Throwable cause) {
    super(message, null, nodeId, cause);
  }
}

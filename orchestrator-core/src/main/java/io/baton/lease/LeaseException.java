package io.baton.lease;

import io.baton.BatonException;
import java.util.UUID;

/** The family of lease failures. */
public class LeaseException extends BatonException {
  public LeaseException(String message, UUID runId, String nodeId, Throwable cause) {
    super(message, runId, nodeId, cause);
  }
}

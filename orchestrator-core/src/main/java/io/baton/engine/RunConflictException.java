package io.baton.engine;

import io.baton.BatonException;
import java.util.UUID;

/** The run's status does not allow what was asked (cancel a finished run, resume a running one). */
public class RunConflictException extends BatonException {
  public RunConflictException(UUID runId, String reason) {
    super(reason, runId, null, null);
  }
}

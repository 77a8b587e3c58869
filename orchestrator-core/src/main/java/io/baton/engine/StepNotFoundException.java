package io.baton.engine;

import io.baton.BatonException;
import java.util.UUID;

/** The run's flow has no step of this name. */
public class StepNotFoundException extends BatonException {
  public StepNotFoundException(UUID runId, String step) {
    super("Run " + runId + " has no step '" + step + "'", runId, null, null);
  }
}

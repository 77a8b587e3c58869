package io.baton.engine;

import io.baton.BatonException;
import java.util.UUID;

/** No run has this id. */
public class RunNotFoundException extends BatonException {
  public RunNotFoundException(UUID runId) {
    super("Run " + runId + " not found", runId, null, null);
  }
}

package io.baton.engine;

import java.util.UUID;

/** A step of a run. */
record StepKey(UUID runId, String step) {
  @Override
  public String toString() {
    return runId + "/" + step;
  }
}

package io.baton.store;

import io.baton.journal.RunStatus;
import java.util.UUID;

/** A signal was refused because its run tree has finished: nothing can apply it any more. */
public final class RunFinishedException extends StoreException {
  private final RunStatus status;

  public RunFinishedException(UUID runId, RunStatus status) {
    super("run " + runId + " has finished (" + status + ") and takes no more signals", runId, null);
    this.status = status;
  }

  /** The status the tree's root finished with. */
  public RunStatus status() {
    return status;
  }
}

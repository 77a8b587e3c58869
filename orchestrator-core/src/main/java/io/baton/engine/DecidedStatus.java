package io.baton.engine;

import io.baton.journal.JournalEvent;
import io.baton.journal.RunCompleted;
import io.baton.journal.RunStatus;
import io.baton.journal.RunStatusChanged;
import io.baton.journal.replay.RunState;
import java.util.List;

/** A run's status as it will be once the tree's decided events are journaled. */
final class DecidedStatus {
  private DecidedStatus() {}

  static RunStatus status(ActiveTree tree, RunState run) {
    RunStatus status = run.status();
    status = apply(status, tree.appends.inFlight(), run);
    return apply(status, tree.appends.buffered(), run);
  }

  private static RunStatus apply(RunStatus status, List<PendingEvent> events, RunState run) {
    for (PendingEvent pending : events) {
      if (!pending.runId().equals(run.runId())) {
        continue;
      }
      JournalEvent event = pending.event();
      if (event instanceof RunStatusChanged changed) {
        status = changed.to();
      } else if (event instanceof RunCompleted done) {
        status = done.status();
      }
    }
    return status;
  }

  /** Whether anything other than status changes waits to be journaled. */
  static boolean hasOutcomes(ActiveTree tree) {
    for (PendingEvent pending : tree.appends.buffered()) {
      if (!(pending.event() instanceof RunStatusChanged)) {
        return true;
      }
    }
    return false;
  }
}

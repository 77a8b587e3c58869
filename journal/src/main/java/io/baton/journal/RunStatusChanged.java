package io.baton.journal;

import java.time.Instant;
import java.util.Objects;

/**
 * A run moved from one status to another for a reason other than finishing its flow: started,
 * parked (WAITING), resumed, cancelled, or failed by the recovery policy.
 *
 * @param recoverable for FAILED: whether a person may resume it
 * @param wakeAt for WAITING on a root run: the earliest timer in the tree, or null
 * @param waiting for WAITING: what the run waits for, or null (entries journaled before it was
 *     recorded, and runs parked for none of the kinds it names)
 */
public record RunStatusChanged(
    RunStatus from,
    RunStatus to,
    String reason,
    boolean recoverable,
    Instant wakeAt,
    RunWait waiting)
    implements JournalEvent {
  public RunStatusChanged {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    reason = reason == null ? "" : reason;
    wakeAt = Instants.micros(wakeAt);
    waiting = to == RunStatus.WAITING ? waiting : null;
  }

  public RunStatusChanged(
      RunStatus from, RunStatus to, String reason, boolean recoverable, Instant wakeAt) {
    this(from, to, reason, recoverable, wakeAt, null);
  }

  public static RunStatusChanged to(RunStatus from, RunStatus to, String reason) {
    return new RunStatusChanged(from, to, reason, false, null);
  }
}

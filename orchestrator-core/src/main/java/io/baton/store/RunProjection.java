package io.baton.store;

import io.baton.journal.JournalEntry;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunCompleted;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.journal.RunStatusChanged;
import java.time.Instant;

/**
 * How journal entries change the {@code runs} rows. Every metadata store applies exactly these
 * rules inside the transaction that appends the entries, so the rows never disagree with the
 * journal. Pure functions.
 *
 * <p>One rule is the store's own, because it needs the signal inbox: when a root becomes WAITING,
 * its {@code wakeAt} is the earlier of the event's {@code wakeAt} and the oldest signal waiting for
 * the tree, so that a signal recorded while the run was still running is not lost when it parks.
 */
public final class RunProjection {
  private RunProjection() {}

  /** The row a {@link RunCreated} entry creates; a root's fence starts at the creator's token. */
  public static RunRecord created(JournalEntry entry, long token) {
    RunCreated created = (RunCreated) entry.event();
    return new RunRecord(
        entry.runId(),
        entry.rootRunId(),
        created.parentRunId(),
        created.parentStep(),
        created.flowName(),
        created.flowHash(),
        RunStatus.PENDING,
        "",
        created.input(),
        null,
        null,
        false,
        null,
        entry.isRootEntry() ? token : 0,
        null,
        entry.isRootEntry() ? created.idempotencyKey() : null,
        entry.timestamp(),
        entry.timestamp(),
        null,
        EventRef.ofTrigger(created.trigger()));
  }

  /**
   * The row after {@code entry} (any event but {@link RunCreated}); rows of events that change no
   * column are returned unchanged.
   */
  public static RunRecord apply(RunRecord row, JournalEntry entry) {
    Instant at = entry.timestamp();
    if (entry.event() instanceof RunClaimed claimed) {
      return row.withOwner(claimed.node(), claimed.token())
          .withStatus(row.status(), row.statusReason(), row.recoverable(), at);
    }
    if (entry.event() instanceof RunStatusChanged changed) {
      RunRecord moved = row.withStatus(changed.to(), changed.reason(), changed.recoverable(), at);
      if (changed.from() == RunStatus.FAILED) {
        moved = moved.withOutcome(null, null);
      }
      return moved
          .withWakeAt(changed.to() == RunStatus.WAITING ? changed.wakeAt() : null)
          .withWaiting(changed.waiting());
    }
    if (entry.event() instanceof RunCompleted done) {
      String reason = done.error() == null ? "" : done.error().message();
      return row.withStatus(done.status(), reason, done.recoverable(), at)
          .withOutcome(done.output(), done.error())
          .withWakeAt(null)
          .withWaiting(null);
    }
    return row;
  }

  /** Whether the event changes a row; stores may skip the write for the others. */
  public static boolean changesRow(JournalEntry entry) {
    return entry.event() instanceof RunCreated
        || entry.event() instanceof RunClaimed
        || entry.event() instanceof RunStatusChanged
        || entry.event() instanceof RunCompleted;
  }
}

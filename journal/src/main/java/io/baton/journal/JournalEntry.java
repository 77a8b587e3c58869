package io.baton.journal;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.UUID;

/**
 * One line of a run tree's journal. {@code seq} is gapless and totally ordered per root run: a run
 * and all its subflows share one sequence. Timestamps are kept to the microsecond so that every
 * store (PostgreSQL's {@code timestamp with time zone} columns included) returns exactly what was
 * appended.
 */
public record JournalEntry(
    UUID runId, UUID rootRunId, long seq, Instant timestamp, JournalEvent event) {
  public JournalEntry {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(rootRunId, "rootRunId");
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(event, "event");
    if (seq < 1) {
      throw new IllegalArgumentException("journal sequences start at 1, got " + seq);
    }
    timestamp = timestamp.truncatedTo(ChronoUnit.MICROS);
  }

  public boolean isRootEntry() {
    return runId.equals(rootRunId);
  }
}

package io.baton.store.postgres.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import io.baton.store.RunProjection;
import io.baton.store.RunRecord;
import java.time.Instant;
import java.util.UUID;

/**
 * One {@code runs} row while a batch is planned: as locked in the database, then as the batch's
 * entries project it. The JSON documents of a locked row are not read; they stand in as {@link
 * #UNREAD} and are written back only when the projection replaced them. Not thread-safe.
 */
final class RunRow {
  /** Stands in for a JSON document that was not read; compared by identity. */
  static final JsonNode UNREAD = new TextNode("(not read)");

  private RunRecord record;
  private final boolean created;
  private final long lockedToken;
  private final long lockedSeq;
  private long latestSeq;
  private boolean changed;
  private boolean parked;

  private RunRow(RunRecord record, long latestSeq, boolean created) {
    this.record = record;
    this.created = created;
    this.lockedToken = record.ownerToken();
    this.lockedSeq = latestSeq;
    this.latestSeq = latestSeq;
  }

  /** A row as locked in the database, its JSON documents unread. */
  static RunRow locked(RunRecord record, long latestSeq) {
    return new RunRow(record, latestSeq, false);
  }

  /** A row a {@code RunCreated} entry of this batch creates. */
  static RunRow created(RunRecord record) {
    RunRow row = new RunRow(record, 0, true);
    row.changed = true;
    return row;
  }

  UUID id() {
    return record.runId();
  }

  RunRecord record() {
    return record;
  }

  boolean isRoot() {
    return record.isRoot();
  }

  /** On a root: the journal's fence. */
  long fence() {
    return record.ownerToken();
  }

  /** On a root: the journal's last sequence, including this batch's entries. */
  long latestSeq() {
    return latestSeq;
  }

  /** On a root: the last sequence that was in the database when the batch began. */
  long lockedSeq() {
    return lockedSeq;
  }

  long lockedToken() {
    return lockedToken;
  }

  boolean isCreated() {
    return created;
  }

  boolean isChanged() {
    return changed;
  }

  @SuppressWarnings("ReferenceEquality") // UNREAD is a marker: only that very node means unread
  boolean outputChanged() {
    return record.output() != UNREAD;
  }

  /** Whether the batch left this root WAITING, so its wake time must consider its signals. */
  boolean isParked() {
    return parked && record.status() == RunStatus.WAITING;
  }

  void apply(JournalEntry entry) {
    record = RunProjection.apply(record, entry);
    changed = true;
    parked |= record.isRoot() && record.status() == RunStatus.WAITING;
  }

  /**
   * Ends a root's part of a request: the journal's end moves to {@code lastSeq} and the fence to
   * {@code fence}. The fence is the journal's (raised only by a claim request), whatever a claim
   * entry told the projection.
   */
  void advance(long lastSeq, long fence) {
    latestSeq = lastSeq;
    record = record.withOwner(record.orchestratorId(), fence);
    changed = true;
  }

  void wakeNoLaterThan(Instant signalledAt) {
    if (record.wakeAt() == null || signalledAt.isBefore(record.wakeAt())) {
      record = record.withWakeAt(signalledAt);
    }
  }
}

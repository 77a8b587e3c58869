package io.baton.store.postgres.internal;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunCreated;
import io.baton.journal.UnknownRootException;
import io.baton.store.DuplicateIdempotencyKeyException;
import io.baton.store.RunProjection;
import io.baton.store.StoreException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Decides, in memory and before anything is written, what each request of a batch does to the
 * locked rows: the same checks in the same order as the reference {@code InMemoryJournal}
 * (identical repeat, re-creation, fence, sequence, then the metadata store's own refusals). A
 * request that is refused changes nothing; one that is accepted changes the rows that later
 * requests of the batch see. Not thread-safe.
 */
final class AppendPlanner {
  /** A journal position: (root, seq). */
  record Position(UUID rootRunId, long seq) {}

  private final Map<UUID, RunRow> rows;
  private final Set<String> takenKeys;
  private final Set<Position> storedIdentically;
  private final Map<Position, JournalEntry> writtenHere = new HashMap<>();
  private final List<JournalEntry> journalWrites = new ArrayList<>();
  private final List<RunRow> createdRows = new ArrayList<>();

  /**
   * @param lockedRows the rows of every run the batch mentions that exist, locked
   * @param takenKeys the idempotency keys among the batch's new roots that runs hold already
   * @param storedIdentically the positions whose stored entry equals the batch's entry there
   */
  AppendPlanner(
      Map<UUID, RunRow> lockedRows, Set<String> takenKeys, Set<Position> storedIdentically) {
    this.rows = new HashMap<>(lockedRows);
    this.takenKeys = new HashSet<>(takenKeys);
    this.storedIdentically = storedIdentically;
  }

  AppendResult plan(AppendRequest request) {
    UUID rootId = request.rootRunId();
    RunRow root = root(rootId);
    if (root == null) {
      return request.createsRoot()
          ? write(request)
          : new AppendResult.Rejected(rootId, new UnknownRootException(rootId));
    }
    if (holdsIdentically(root, request.entries())) {
      return new AppendResult.Appended(rootId, request.lastSeq(), true);
    }
    if (request.createsRoot()) {
      return new AppendResult.SequenceConflict(rootId, 1, root.latestSeq());
    }
    if (!request.admittedBy(root.fence())) {
      return new AppendResult.FencedOut(rootId, request.token(), root.fence());
    }
    if (request.firstSeq() != root.latestSeq() + 1) {
      return new AppendResult.SequenceConflict(rootId, request.firstSeq(), root.latestSeq());
    }
    return write(request);
  }

  /** Journal entries to insert, in order. */
  List<JournalEntry> journalWrites() {
    return journalWrites;
  }

  /** Every row the batch locked or created. */
  Collection<RunRow> rows() {
    return rows.values();
  }

  /** Rows the batch creates, in order of creation. */
  List<RunRow> createdRows() {
    return createdRows;
  }

  /** Rows that existed and that the batch changes. */
  List<RunRow> changedRows() {
    return rows.values().stream().filter(r -> !r.isCreated() && r.isChanged()).toList();
  }

  private RunRow root(UUID rootId) {
    RunRow row = rows.get(rootId);
    return row != null && row.isRoot() && row.id().equals(row.record().rootRunId()) ? row : null;
  }

  private boolean holdsIdentically(RunRow root, List<JournalEntry> entries) {
    for (JournalEntry entry : entries) {
      Position at = new Position(entry.rootRunId(), entry.seq());
      boolean same =
          entry.seq() <= root.lockedSeq()
              ? storedIdentically.contains(at)
              : entry.equals(writtenHere.get(at));
      if (!same) {
        return false;
      }
    }
    return true;
  }

  private AppendResult write(AppendRequest request) {
    RuntimeException refusal = refusal(request);
    if (refusal != null) {
      return new AppendResult.Rejected(request.rootRunId(), refusal);
    }
    for (JournalEntry entry : request.entries()) {
      if (entry.event() instanceof RunCreated created) {
        RunRow row = RunRow.created(RunProjection.created(entry, request.token()));
        rows.put(row.id(), row);
        createdRows.add(row);
        if (entry.isRootEntry() && created.idempotencyKey() != null) {
          takenKeys.add(created.idempotencyKey());
        }
      } else if (RunProjection.changesRow(entry)) {
        rows.get(entry.runId()).apply(entry);
      }
      writtenHere.put(new Position(entry.rootRunId(), entry.seq()), entry);
      journalWrites.add(entry);
    }
    RunRow root = rows.get(request.rootRunId());
    root.advance(request.lastSeq(), request.claims() ? request.token() : root.fence());
    return new AppendResult.Appended(request.rootRunId(), request.lastSeq(), false);
  }

  /** Why the metadata store refuses the request, or null: checked before anything changes. */
  private RuntimeException refusal(AppendRequest request) {
    Set<UUID> createdHere = new HashSet<>();
    Set<String> keysHere = new HashSet<>();
    for (JournalEntry entry : request.entries()) {
      UUID runId = entry.runId();
      if (entry.event() instanceof RunCreated created) {
        if (rows.containsKey(runId) || !createdHere.add(runId)) {
          return new StoreException("run " + runId + " exists already", runId, null);
        }
        String key = entry.isRootEntry() ? created.idempotencyKey() : null;
        if (key != null && (takenKeys.contains(key) || !keysHere.add(key))) {
          return new DuplicateIdempotencyKeyException(runId, key);
        }
      } else if (!createdHere.contains(runId)) {
        RunRow row = rows.get(runId);
        if (row == null) {
          return new StoreException("no run " + runId + " to apply the entry to", runId, null);
        }
        if (!row.record().rootRunId().equals(request.rootRunId())) {
          return new StoreException(
              "run "
                  + runId
                  + " belongs to the tree of "
                  + row.record().rootRunId()
                  + ", not of "
                  + request.rootRunId(),
              runId,
              null);
        }
      }
    }
    return null;
  }
}

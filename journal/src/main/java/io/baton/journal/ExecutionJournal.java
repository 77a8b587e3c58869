package io.baton.journal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * The write-ahead journal of run trees, keyed by root run id. Every write is fenced by the caller's
 * ownership token (see {@link AppendRequest} for the rule), so a node that lost a run can never
 * append to it again. Implementations are thread-safe; appends to one root are linearizable.
 *
 * <p>Appends are idempotent: a request whose entries are already in the journal, identical and at
 * the same sequences, succeeds without writing (this is how an append whose commit was ambiguous is
 * retried safely), whatever the fence says now.
 */
public interface ExecutionJournal {

  /**
   * Appends the request's entries atomically.
   *
   * @throws FencedOutException the token is stale; nothing was written
   * @throws SequenceConflictException the first seq is not the next one; nothing was written
   * @throws UnknownRootException the root has no journal and the request does not create it
   */
  void append(AppendRequest request);

  /**
   * Appends many requests, each atomically and independently of the others: one that is fenced out
   * or conflicts fails alone. Returns one result per request, in request order. Infrastructure
   * failures (the store is down) are thrown, not returned; part of the batch may have been written
   * then, and resubmitting the same requests is safe (appends are idempotent).
   */
  List<AppendResult> appendAll(List<AppendRequest> requests);

  /**
   * Up to {@code limit} entries of the root's hot journal with {@code seq >= fromSeq}, in sequence
   * order: what replay needs. Entries archived by {@link #compact} or {@link #archiveCovered} are
   * not returned (their checkpoint stands for them); {@link #readHistory} returns them.
   */
  List<JournalEntry> readFrom(UUID rootRunId, long fromSeq, int limit);

  /**
   * Up to {@code limit} entries of the root's whole history with {@code seq >= fromSeq}, in
   * sequence order: the archive and the hot journal read as one sequence, without a gap or a
   * duplicate while entries move from one to the other (for people: the API's journal pages and the
   * dashboard's timeline). Only retention's deletion of a finished tree removes entries from it.
   */
  List<JournalEntry> readHistory(UUID rootRunId, long fromSeq, int limit);

  /** The highest sequence ever appended to the root (compacted entries count), 0 if none. */
  long latestSequence(UUID rootRunId);

  /** The root's current fencing token, empty when the root has no journal. */
  OptionalLong currentToken(UUID rootRunId);

  /**
   * Stores a checkpoint for the root, fenced like an append, replacing an older one.
   *
   * @throws FencedOutException the token is stale
   * @throws IllegalArgumentException the checkpoint is beyond the latest sequence
   */
  void checkpoint(UUID rootRunId, long token, Checkpoint checkpoint);

  /** The root's latest checkpoint, if any. */
  Optional<Checkpoint> getCheckpoint(UUID rootRunId);

  /**
   * Every retained entry of each root, in sequence order, in as few round trips as the store can
   * (recovery loads thousands of trees at once). Roots without a journal are absent.
   */
  default Map<UUID, List<JournalEntry>> readAll(Collection<UUID> rootRunIds) {
    Map<UUID, List<JournalEntry>> journals = new LinkedHashMap<>();
    for (UUID root : rootRunIds) {
      List<JournalEntry> entries = new ArrayList<>();
      long next = 1;
      List<JournalEntry> page;
      do {
        page = readFrom(root, next, 1000);
        entries.addAll(page);
        next = page.isEmpty() ? next : page.get(page.size() - 1).seq() + 1;
      } while (page.size() == 1000);
      if (!entries.isEmpty()) {
        journals.put(root, entries);
      }
    }
    return journals;
  }

  /**
   * For each root, its retained entries after {@code afterSeq.get(root)}, in sequence order, in as
   * few round trips as the store can: a claim reads a tree's checkpoint and only the entries that
   * follow it. Roots with no such entries are absent.
   */
  default Map<UUID, List<JournalEntry>> readAllAfter(Map<UUID, Long> afterSeq) {
    Map<UUID, List<JournalEntry>> journals = new LinkedHashMap<>();
    afterSeq.forEach(
        (root, after) -> {
          List<JournalEntry> entries = new ArrayList<>();
          long next = after + 1;
          List<JournalEntry> page;
          do {
            page = readFrom(root, next, 1000);
            entries.addAll(page);
            next = page.isEmpty() ? next : page.get(page.size() - 1).seq() + 1;
          } while (page.size() == 1000);
          if (!entries.isEmpty()) {
            journals.put(root, entries);
          }
        });
    return journals;
  }

  /** The checkpoints of the roots that have one. */
  default Map<UUID, Checkpoint> getCheckpoints(Collection<UUID> rootRunIds) {
    Map<UUID, Checkpoint> checkpoints = new LinkedHashMap<>();
    for (UUID root : rootRunIds) {
      getCheckpoint(root).ifPresent(checkpoint -> checkpoints.put(root, checkpoint));
    }
    return checkpoints;
  }

  /**
   * Moves the root's entries covered by its checkpoint out of the hot journal into its archive
   * (where {@link #readHistory} still reads them), at once; returns how many moved. Appends are
   * never blocked by it: it touches only entries at or below the checkpoint's sequence.
   */
  int compact(UUID rootRunId);

  /**
   * Moves up to {@code limit} entries covered by checkpoints, of any roots, out of the hot journal
   * into the archive, in one short step; returns how many moved (0: nothing is left to archive).
   * This is the background archiver's batch: callers on many nodes may run it at once, and no entry
   * is moved twice or lost (a root being archived by one caller is skipped by the others).
   */
  int archiveCovered(int limit);

  /**
   * Roots whose root run is not terminal, in id order, after {@code after} (null for the first
   * page), at most {@code limit}.
   */
  List<UUID> listActiveRoots(UUID after, int limit);
}

package io.baton.journal.memory;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.Checkpoint;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.FencedOutException;
import io.baton.journal.JournalEntry;
import io.baton.journal.UnknownRootException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * An {@link ExecutionJournal} in memory: one lock, exact semantics, no durability. It passes the
 * same compliance suite as the PostgreSQL journal. Subclasses may hook {@link #beforeAppend}/{@link
 * #afterAppend} to keep a projection consistent with the journal; both run under the journal's
 * lock.
 */
public class InMemoryJournal implements ExecutionJournal {
  private final TreeMap<UUID, RootLog> roots = new TreeMap<>();

  @Override
  public void append(AppendRequest request) {
    appendOne(request).throwIfFailed();
  }

  @Override
  public List<AppendResult> appendAll(List<AppendRequest> requests) {
    List<AppendResult> results = new ArrayList<>(requests.size());
    for (AppendRequest request : requests) {
      results.add(appendOne(request));
    }
    return results;
  }

  private synchronized AppendResult appendOne(AppendRequest request) {
    RootLog log = roots.get(request.rootRunId());
    if (log == null) {
      return request.createsRoot()
          ? write(request, new RootLog(request.token()), true)
          : new AppendResult.Rejected(
              request.rootRunId(), new UnknownRootException(request.rootRunId()));
    }
    if (log.holdsIdentically(request.entries())) {
      return new AppendResult.Appended(request.rootRunId(), request.lastSeq(), true);
    }
    if (request.createsRoot()) {
      return new AppendResult.SequenceConflict(request.rootRunId(), 1, log.latestSeq);
    }
    if (!request.admittedBy(log.token)) {
      return new AppendResult.FencedOut(request.rootRunId(), request.token(), log.token);
    }
    if (request.firstSeq() != log.latestSeq + 1) {
      return new AppendResult.SequenceConflict(
          request.rootRunId(), request.firstSeq(), log.latestSeq);
    }
    return write(request, log, false);
  }

  private AppendResult write(AppendRequest request, RootLog log, boolean isNew) {
    try {
      beforeAppend(request);
    } catch (RuntimeException refused) {
      return new AppendResult.Rejected(request.rootRunId(), refused);
    }
    if (isNew) {
      roots.put(request.rootRunId(), log);
    }
    log.add(request);
    afterAppend(request);
    return new AppendResult.Appended(request.rootRunId(), request.lastSeq(), false);
  }

  /**
   * Called under the lock once the request passed the fence and sequence checks, before anything is
   * written; throwing refuses the request (it becomes {@link AppendResult.Rejected}).
   */
  protected void beforeAppend(AppendRequest request) {}

  /** Called under the lock after the request's entries were written. */
  protected void afterAppend(AppendRequest request) {}

  /**
   * One root as the appends, checkpoint and archive watermark that rebuild it exactly (a snapshot
   * for a store kept durable by a log of its own, which compacts that log).
   */
  public record RootImage(
      UUID rootRunId, List<AppendRequest> appends, Checkpoint checkpoint, long archivedThrough) {}

  /** Every root's image, in root order. */
  public synchronized List<RootImage> images() {
    List<RootImage> images = new ArrayList<>(roots.size());
    roots.forEach(
        (root, log) ->
            images.add(
                new RootImage(root, log.asAppends(root), log.checkpoint, log.archivedThrough())));
    return images;
  }

  /**
   * Forgets every root. For a store kept durable by a log of its own (the embedded store), which
   * rebuilds memory from that log after a failed write.
   */
  public synchronized void clear() {
    roots.clear();
  }

  @Override
  public synchronized List<JournalEntry> readFrom(UUID rootRunId, long fromSeq, int limit) {
    RootLog log = roots.get(rootRunId);
    return log == null ? List.of() : log.readFrom(fromSeq, limit);
  }

  @Override
  public synchronized List<JournalEntry> readHistory(UUID rootRunId, long fromSeq, int limit) {
    RootLog log = roots.get(rootRunId);
    return log == null || limit <= 0 ? List.of() : log.readHistory(fromSeq, limit);
  }

  @Override
  public synchronized long latestSequence(UUID rootRunId) {
    RootLog log = roots.get(rootRunId);
    return log == null ? 0 : log.latestSeq;
  }

  @Override
  public synchronized OptionalLong currentToken(UUID rootRunId) {
    RootLog log = roots.get(rootRunId);
    return log == null ? OptionalLong.empty() : OptionalLong.of(log.token);
  }

  @Override
  public synchronized void checkpoint(UUID rootRunId, long token, Checkpoint checkpoint) {
    RootLog log = roots.get(rootRunId);
    if (log == null) {
      throw new UnknownRootException(rootRunId);
    }
    if (log.token != token) {
      throw new FencedOutException(rootRunId, token, log.token);
    }
    if (checkpoint.seq() > log.latestSeq) {
      throw new IllegalArgumentException(
          "checkpoint at seq "
              + checkpoint.seq()
              + " is beyond the end of the journal of "
              + rootRunId
              + " (seq "
              + log.latestSeq
              + ")");
    }
    if (log.checkpoint == null || log.checkpoint.seq() <= checkpoint.seq()) {
      log.checkpoint = checkpoint;
    }
  }

  @Override
  public synchronized Optional<Checkpoint> getCheckpoint(UUID rootRunId) {
    RootLog log = roots.get(rootRunId);
    return log == null ? Optional.empty() : Optional.ofNullable(log.checkpoint);
  }

  @Override
  public synchronized int compact(UUID rootRunId) {
    RootLog log = roots.get(rootRunId);
    return log == null ? 0 : log.compact();
  }

  @Override
  public int archiveCovered(int limit) {
    return archiveCoveredByRoot(limit).values().stream().mapToInt(Archived::moved).sum();
  }

  /** How far one call archived a root: through which sequence, and how many entries it moved. */
  public record Archived(long through, int moved) {}

  /**
   * {@link #archiveCovered}, telling for each root it archived through which sequence (for a store
   * that logs its changes, which replays them with {@link #archiveThrough}).
   */
  public synchronized Map<UUID, Archived> archiveCoveredByRoot(int limit) {
    Map<UUID, Archived> archived = new LinkedHashMap<>();
    int left = limit;
    for (Map.Entry<UUID, RootLog> root : roots.entrySet()) {
      if (left <= 0) {
        break;
      }
      RootLog log = root.getValue();
      if (log.hasCovered()) {
        int moved = log.archiveThrough(log.archivedThrough() + left);
        left -= moved;
        archived.put(root.getKey(), new Archived(log.archivedThrough(), moved));
      }
    }
    return archived;
  }

  /** Archives the root's entries through {@code seq}, within its checkpoint; returns how many. */
  public synchronized int archiveThrough(UUID rootRunId, long seq) {
    RootLog log = roots.get(rootRunId);
    return log == null ? 0 : log.archiveThrough(seq);
  }

  /**
   * Deletes whole roots (retention of finished trees): under the journal's lock, so that no append
   * interleaves, {@code decide} picks the roots (and a store projecting the journal deletes its
   * rows for them); their journals, archives and checkpoints are then deleted. Returns what {@code
   * decide} returned.
   */
  public synchronized <T extends Collection<UUID>> T forget(Supplier<T> decide) {
    T forgotten = decide.get();
    forgotten.forEach(roots::remove);
    return forgotten;
  }

  @Override
  public synchronized List<UUID> listActiveRoots(UUID after, int limit) {
    List<UUID> active = new ArrayList<>();
    Map<UUID, RootLog> page = after == null ? roots : roots.tailMap(after, false);
    for (Map.Entry<UUID, RootLog> root : page.entrySet()) {
      if (active.size() >= limit) {
        break;
      }
      if (root.getValue().active) {
        active.add(root.getKey());
      }
    }
    return active;
  }
}

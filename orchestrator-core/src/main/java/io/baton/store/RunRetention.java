package io.baton.store;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Deleting finished run trees: their runs, journal (hot and archived), checkpoint, signals and the
 * blobs nothing references any more. A tree is <b>finished</b> when its root is SUCCEEDED,
 * CANCELLED, or FAILED and not recoverable; a recoverable failure is kept until it is resumed or
 * {@linkplain #discardTree discarded}. Retention works in two steps that any number of nodes may
 * run at once: the caller gives each finished tree a deadline ({@link #setDeadlines}, computed from
 * its flow's retention), and {@link #deleteExpired} deletes trees past it, in bounded batches that
 * concurrent callers take disjointly. A deadline is given for one finish: when the root's row
 * changes afterwards (a claim, a status change), the deadline no longer counts and the tree is not
 * deleted until it is finished again and given a new one. A tree that is not finished is never
 * deleted, whatever its deadline. Implementations are thread-safe and pass {@code
 * RunRetentionComplianceSuite}.
 */
public interface RunRetention {

  /**
   * A finished tree that has no deadline for its current finish.
   *
   * @param finishedAt when its root's row last changed (its finish); a deadline names it
   */
  record FinishedTree(UUID rootRunId, String flowName, String flowHash, Instant finishedAt) {
    public FinishedTree {
      Objects.requireNonNull(rootRunId, "rootRunId");
      Objects.requireNonNull(finishedAt, "finishedAt");
    }
  }

  /** When a finished tree may be deleted, for the finish at {@code finishedAt}. */
  record Deadline(UUID rootRunId, Instant finishedAt, Instant deleteAt) {
    public Deadline {
      Objects.requireNonNull(rootRunId, "rootRunId");
      Objects.requireNonNull(finishedAt, "finishedAt");
      Objects.requireNonNull(deleteAt, "deleteAt");
    }
  }

  /** What {@link #discardTree} did. */
  enum Discarded {
    /** The tree was deleted. */
    DELETED,
    /** No tree has this root. */
    ABSENT,
    /** The root is PENDING, RUNNING or WAITING: nothing was deleted. */
    LIVE
  }

  /**
   * Up to {@code limit} finished trees without a deadline for their current finish, oldest first.
   */
  List<FinishedTree> finishedWithoutDeadline(int limit);

  /**
   * Gives trees their deadlines. One whose root changed since {@code finishedAt} is left alone (it
   * is listed again once it finishes again).
   */
  void setDeadlines(Collection<Deadline> deadlines);

  /**
   * Deletes up to {@code limit} finished trees whose deadline is at or before {@code now}, each
   * with everything that belongs to it, in one short transaction; trees another caller is deleting
   * are skipped. Returns the roots deleted.
   */
  List<UUID> deleteExpired(Instant now, int limit);

  /**
   * Deletes a tree that is not live, now, whatever its deadline (the operator's discard of a
   * recoverable failure, or of any finished run).
   */
  Discarded discardTree(UUID rootRunId);
}

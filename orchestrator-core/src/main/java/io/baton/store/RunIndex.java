package io.baton.store;

import io.baton.journal.RunStatus;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The run rows: a read-only projection ({@link RunProjection}) of the journal, which the same
 * store's {@code ExecutionJournal} maintains in the transaction of each append, so a row is never
 * behind an acknowledged append. The queries are the targeted ones recovery needs; each is served
 * by an index, so its cost grows with what it returns, not with the table. Implementations are
 * thread-safe and pass {@code RunIndexComplianceSuite}.
 */
public interface RunIndex {

  Optional<RunRecord> findRun(UUID runId);

  /** The root run submitted with this idempotency key. */
  Optional<RunRecord> findRunByIdempotencyKey(String idempotencyKey);

  List<RunRecord> listRuns(RunQuery query);

  /**
   * One page of the runs that pass {@code filter}, newest first: by creation time descending, then
   * by id descending ({@link RunPosition#ID_ORDER}), starting just after {@code after} ({@code
   * null}: at the newest). Keyset paging: a page costs the same however deep it is, and runs
   * created while a client pages never shift the pages it has not read yet.
   *
   * @param limit at most this many runs (positive)
   */
  RunPage pageRuns(RunFilter filter, RunPosition after, int limit);

  /**
   * The change feed: runs whose row changed after {@code after}, in order of their last change
   * ({@code updatedAt}, then id), oldest first. A row holds only its latest change, so a run that
   * changed twice since {@code after} appears once, at its latest position. A change is visible
   * once its append commits, which may be after a later-timestamped one: readers that must not miss
   * changes re-read a little before their last position.
   */
  List<RunRecord> runsChangedAfter(RunPosition after, int limit);

  /** The runs of a tree: the root first, then subflows in order of creation. */
  List<RunRecord> listTree(UUID rootRunId);

  /** Root runs with this status recorded as owned by {@code nodeId} (startup recovery). */
  List<UUID> findRootsOwnedBy(String nodeId, RunStatus status, int limit);

  /**
   * RUNNING root runs recorded as owned by {@code nodeId} whose fence ({@code ownerToken}) is below
   * {@code fencedBelow}: the runs an ended lease of the node held, leaving out those a later lease
   * of the same node started or adopted (whose tokens are all larger).
   */
  List<UUID> findRunningRootsFencedBelow(String nodeId, long fencedBelow, int limit);

  /**
   * RUNNING root runs whose recorded owner is none of {@code liveNodes} (the runs of dead nodes),
   * with their recorded owner.
   */
  List<RunRecord> findRunningRootsOutside(Collection<String> liveNodes, int limit);

  /** PENDING root runs (submitted, never started), oldest first. */
  List<UUID> findPendingRoots(int limit);

  /** WAITING root runs whose {@code wakeAt} is at or before {@code now}, soonest first. */
  List<UUID> findDueWaitingRoots(Instant now, int limit);

  /** How many RUNNING root runs each node is recorded to own. */
  Map<String, Integer> countRunningRootsByNode();

  /** How many runs (roots and subflows) have each status. */
  Map<RunStatus, Long> countRunsByStatus();
}

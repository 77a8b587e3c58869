package io.baton.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.RunStatus;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Run metadata, flows and the signal inbox. Run rows are never written directly: they are the
 * projection ({@link RunProjection}) of the journal that the same store's {@code ExecutionJournal}
 * maintains in the transaction of each append. The queries here are the targeted ones recovery
 * needs; each is served by an index, so its cost grows with what it returns, not with the table.
 * Implementations are thread-safe and pass {@code MetadataStoreComplianceSuite}.
 */
public interface MetadataStore {

  // --- flows -------------------------------------------------------------------------------

  /** Records a version of a flow. Saving the same name and hash again does nothing. */
  void saveFlow(FlowRecord flow);

  /** The newest version of the named flow. */
  Optional<FlowRecord> latestFlow(String name);

  /** The newest version of every flow, by name. */
  List<FlowRecord> listFlows();

  /** Every version of the named flow, newest first. */
  List<FlowRecord> flowVersions(String name);

  // --- runs (read-only projection of the journal) --------------------------------------------

  Optional<RunRecord> findRun(UUID runId);

  /** The root run submitted with this idempotency key. */
  Optional<RunRecord> findRunByIdempotencyKey(String idempotencyKey);

  List<RunRecord> listRuns(RunQuery query);

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

  // --- signals -------------------------------------------------------------------------------

  /**
   * Records a signal for a run and, in the same transaction, makes a WAITING root claimable at once
   * ({@code wakeAt = now}) so that whoever claims it applies the signal.
   *
   * @throws RunFinishedException the run's tree has finished: the signal is not recorded
   */
  Signal addSignal(UUID runId, SignalType type, String step, JsonNode payload, Instant now);

  /** Signals waiting for this tree, oldest first. */
  List<Signal> signalsFor(UUID rootRunId);

  /** Signals waiting for each of these trees, oldest first; trees without any are absent. */
  default Map<UUID, List<Signal>> signalsForTrees(Collection<UUID> rootRunIds) {
    Map<UUID, List<Signal>> signals = new LinkedHashMap<>();
    for (UUID root : rootRunIds) {
      List<Signal> waiting = signalsFor(root);
      if (!waiting.isEmpty()) {
        signals.put(root, waiting);
      }
    }
    return signals;
  }

  /**
   * Removes applied (or stale) signals. Unknown ids are ignored. A tree's remaining signals are
   * also removed, in the same transaction, by the append that finishes its root.
   */
  void deleteSignals(Collection<Long> signalIds);

  // --- health --------------------------------------------------------------------------------

  /** Answers when the store answers; throws {@link StoreUnavailableException} otherwise. */
  void ping();
}

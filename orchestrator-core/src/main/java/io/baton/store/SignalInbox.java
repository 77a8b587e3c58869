package io.baton.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Signals (approve, reject, cancel, retry-now) waiting in a run tree's inbox until the tree's owner
 * applies them. A signal to a subflow lands in its root's inbox; a signal is never recorded for a
 * finished tree, and the append that finishes a root removes what is left. Adding a signal wakes a
 * WAITING root in the same transaction, so the inbox lives in the store whose {@link RunIndex}
 * holds the tree. Implementations are thread-safe and pass {@code SignalInboxComplianceSuite}.
 */
public interface SignalInbox {

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
}

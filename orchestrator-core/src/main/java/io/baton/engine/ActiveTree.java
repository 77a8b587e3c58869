package io.baton.engine;

import io.baton.flow.Flow;
import io.baton.internal.Defect;
import io.baton.journal.AppendRequest;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.TreeState;
import io.baton.store.Signal;
import io.baton.time.Scheduler;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A run tree this node owns and executes: its journaled state, the events decided but not yet
 * journaled, and what is in flight. Confined to the engine's thread.
 *
 * <p>{@link #state} only ever holds what the journal acknowledged: the engine starts a step only
 * when the completions it depends on are durable.
 */
final class ActiveTree {
  final UUID rootId;
  final long token;

  /** The lease epoch the tree was adopted in (see Engine#leaseEpoch). */
  final long epoch;

  /**
   * Whether this node holds a run key for the tree (claimed trees) or runs it on its node token.
   */
  final boolean keyed;

  final TreeState state;
  private final Map<String, Flow> flowsByHash;

  /** Whether the tree journals its steps' starts (see {@link Interruptions}). */
  final boolean journalsStarts;

  /** Decided, not yet submitted. */
  final List<PendingEvent> buffer = new ArrayList<>();

  /** Submitted, not yet acknowledged (at most one append per tree at a time). */
  List<PendingEvent> inFlight;

  AppendRequest inFlightRequest;
  int appendFailures;

  final Map<StepKey, Attempt> running = new HashMap<>();

  /** Steps whose outcome is decided (buffered or in flight) but not yet journaled. */
  final Set<StepKey> settling = new HashSet<>();

  final ArrayDeque<Signal> inbox = new ArrayDeque<>();
  final List<Long> signalsToDelete = new ArrayList<>();
  List<Long> signalsInFlight = List.of();

  Scheduler.Cancellable wakeTimer;
  Instant wakeTimerAt;
  boolean retired;

  ActiveTree(
      UUID rootId,
      long token,
      long epoch,
      boolean keyed,
      TreeState state,
      Map<String, Flow> flowsByHash) {
    this.rootId = rootId;
    this.token = token;
    this.epoch = epoch;
    this.keyed = keyed;
    this.state = state;
    this.flowsByHash = new HashMap<>(flowsByHash);
    this.journalsStarts =
        state.root() != null
            && Interruptions.tracked(flowsByHash.get(state.root().flowHash()))
            && !Defect.NO_START_MARKERS.isActive();
  }

  Flow flowOf(RunState run) {
    Flow flow = flowsByHash.get(run.flowHash());
    if (flow == null) {
      throw new IllegalStateException(
          "no flow " + run.flowHash() + " loaded for run " + run.runId());
    }
    return flow;
  }

  void addFlow(Flow flow) {
    flowsByHash.put(flow.hash(), flow);
  }

  boolean hasFlow(String hash) {
    return flowsByHash.containsKey(hash);
  }

  /** Nothing decided, submitted or running: the tree only waits. */
  boolean quiet() {
    return buffer.isEmpty() && inFlight == null && running.isEmpty() && settling.isEmpty();
  }

  boolean busy(StepKey key) {
    return running.containsKey(key) || settling.contains(key);
  }

  boolean busy(UUID runId) {
    for (StepKey key : running.keySet()) {
      if (key.runId().equals(runId)) {
        return true;
      }
    }
    for (StepKey key : settling) {
      if (key.runId().equals(runId)) {
        return true;
      }
    }
    return false;
  }

  void buffer(UUID runId, io.baton.journal.JournalEvent event, StepKey settles) {
    buffer.add(new PendingEvent(runId, event, settles));
    if (settles != null) {
      settling.add(settles);
    }
  }

  List<RunState> descendantsOf(UUID runId) {
    List<RunState> found = new ArrayList<>();
    Set<UUID> parents = new HashSet<>(Set.of(runId));
    for (RunState run : state.runs()) {
      if (run.parentRunId() != null && parents.contains(run.parentRunId())) {
        found.add(run);
        parents.add(run.runId());
      }
    }
    return found;
  }
}

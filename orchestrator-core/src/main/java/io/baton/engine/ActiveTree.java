package io.baton.engine;

import io.baton.flow.Flow;
import io.baton.flow.StepDefinition;
import io.baton.internal.Defect;
import io.baton.journal.JournalEvent;
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

  /** The tree's way into the journal: decided events, the append in flight, answered signals. */
  final TreeAppends appends;

  /** Attempts invoked (or waiting for their start to be journaled), by step. */
  final Map<StepKey, Attempt> running = new HashMap<>();

  /**
   * Steps whose outcome is decided but not yet journaled (buffered, in flight, or being prepared,
   * such as a subflow whose flow is being loaded).
   */
  final Set<StepKey> unjournaled = new HashSet<>();

  /** Signals delivered to the tree and not yet looked at. */
  final ArrayDeque<Signal> inbox = new ArrayDeque<>();

  /**
   * Signals that found nothing to answer while an append of the tree was submitted but not yet
   * acknowledged: the journal their sender read may be ahead of {@link #state} (an approval sent as
   * soon as its wait was committed), so they are looked at again once nothing is in flight instead
   * of being deleted as stale.
   */
  final List<Signal> deferred = new ArrayList<>();

  /**
   * Set while the tree is being let go to another node (rebalancing): it starts no step, and once
   * nothing is in flight it leaves the node at that step boundary. Loop only.
   */
  LettingGo leaving;

  /** The seq of the tree's latest checkpoint this node knows of (see {@link Checkpoints}). */
  long checkpointedSeq;

  /** About how many bytes were journaled since that checkpoint. */
  long bytesSinceCheckpoint;

  /** Whether a checkpoint of the tree is being written. */
  boolean checkpointing;

  private Scheduler.Cancellable wakeTimer;
  private Instant wakeTimerAt;

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
    this.appends = new TreeAppends(rootId, token);
    this.checkpointedSeq = state.checkpointSeq();
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

  /** The capability of a run's step, or {@code "unknown"} when its flow is not loaded here. */
  String capabilityOf(RunState run, String step) {
    Flow flow = flowsByHash.get(run.flowHash());
    StepDefinition definition = flow == null ? null : flow.step(step);
    return definition == null ? "unknown" : definition.capability();
  }

  void addFlow(Flow flow) {
    flowsByHash.put(flow.hash(), flow);
  }

  boolean hasFlow(String hash) {
    return flowsByHash.containsKey(hash);
  }

  /** Nothing decided, submitted or running: the tree only waits. */
  boolean quiet() {
    return appends.empty() && running.isEmpty() && unjournaled.isEmpty();
  }

  /** Whether the tree left the node: nothing more is decided, invoked or journaled for it. */
  boolean retired() {
    return appends.retired();
  }

  /**
   * Retires the tree: its attempts are cancelled, its timer stopped. Returns false when it was
   * retired before.
   */
  boolean retire() {
    if (!appends.retire()) {
      return false;
    }
    running.values().forEach(Attempt::cancel);
    running.clear();
    cancelWake();
    return true;
  }

  boolean busy(StepKey key) {
    return running.containsKey(key) || unjournaled.contains(key);
  }

  boolean busy(UUID runId) {
    for (StepKey key : running.keySet()) {
      if (key.runId().equals(runId)) {
        return true;
      }
    }
    for (StepKey key : unjournaled) {
      if (key.runId().equals(runId)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Decides an event for a run of the tree: it joins the next append. With {@code outcomeOf} it
   * records that step's outcome, and the step counts as busy until it is journaled.
   */
  void decide(UUID runId, JournalEvent event, StepKey outcomeOf) {
    appends.add(new PendingEvent(runId, event, outcomeOf));
    if (outcomeOf != null) {
      unjournaled.add(outcomeOf);
    }
  }

  /**
   * Arms the tree's one wake-up timer for {@code due}, unless one is armed for that time or earlier
   * and still ahead of {@code now}.
   */
  void armWake(Instant due, Instant now, Scheduler scheduler, Runnable wake) {
    boolean armed = wakeTimerAt != null && wakeTimerAt.isAfter(now);
    if (armed && !due.isBefore(wakeTimerAt)) {
      return;
    }
    cancelWake();
    wakeTimerAt = due;
    wakeTimer = scheduler.scheduleAt(due, wake);
  }

  private void cancelWake() {
    if (wakeTimer != null) {
      wakeTimer.cancel();
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

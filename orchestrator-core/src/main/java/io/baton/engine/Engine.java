package io.baton.engine;

import io.baton.capability.CapabilityRegistry;
import io.baton.internal.Defect;
import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.TreeState;
import io.baton.store.MetadataStore;
import io.baton.store.Signal;
import io.baton.time.Scheduler;
import io.baton.time.SerialExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes the run trees this node owns. All tree state lives on one serial loop; capabilities,
 * journal writes and lease calls run asynchronously and report back to the loop. A decision is only
 * ever taken on journaled state: a step starts when the completions it depends on are durable, and
 * every state change is journaled under the tree's fencing token before it counts.
 *
 * <p>Thread-safe: public methods may be called from any thread; they hop onto the loop.
 */
public final class Engine {
  private static final Logger log = LoggerFactory.getLogger(Engine.class);
  private static final Duration FIRST_STORE_RETRY = Duration.ofMillis(50);

  final EngineConfig config;
  final Scheduler scheduler;
  final EngineIo io;
  final CapabilityRegistry capabilities;
  final FlowRegistry flows;
  final MetadataStore metadata;
  final EngineMetrics metrics;
  final RandomGenerator random;
  private final SerialExecutor loop;
  private final TreeDriver driver;
  private final Map<UUID, ActiveTree> trees = new HashMap<>();
  private final Set<UUID> owned = ConcurrentHashMap.newKeySet();
  private final AtomicInteger occupied = new AtomicInteger();
  private final AtomicLong leaseEpoch = new AtomicLong();
  private final List<RunEventListener> listeners = new CopyOnWriteArrayList<>();
  private volatile boolean suspended;
  private volatile boolean draining;

  public Engine(
      EngineConfig config,
      Scheduler scheduler,
      EngineIo io,
      CapabilityRegistry capabilities,
      FlowRegistry flows,
      MetadataStore metadata,
      EngineMetrics metrics,
      RandomGenerator random) {
    this.config = config;
    this.scheduler = scheduler;
    this.io = io;
    this.capabilities = capabilities;
    this.flows = flows;
    this.metadata = metadata;
    this.metrics = metrics;
    this.random = random;
    this.loop = new SerialExecutor(scheduler);
    this.driver = new TreeDriver(this);
    metrics.registry().gauge(EngineMetrics.OWNED_RUNS, () -> owned::size);
  }

  public String nodeId() {
    return config.nodeId();
  }

  // --- capacity -------------------------------------------------------------------------------

  /** Run trees this node could still take on to recover them (orphans, wakes, its own). */
  public int freeCapacity() {
    return Math.max(0, config.maxConcurrentRuns() - occupied.get());
  }

  /**
   * Run trees this node could still take on as new work (submissions, pending runs): all but the
   * share held back for recovery ({@link EngineConfig#recoveryReserve()}), so that a node kept full
   * by submissions still wakes its due parked runs and re-claims its own interrupted ones.
   */
  public int freeCapacityForNewWork() {
    return Math.max(0, newWorkLimit() - occupied.get());
  }

  private int newWorkLimit() {
    return Defect.NO_RECOVERY_RESERVE.isActive()
        ? config.maxConcurrentRuns()
        : config.maxConcurrentRuns() - config.recoveryReserve();
  }

  /**
   * Reserves room for a tree this node submits and marks it as this node's while it is being
   * created; false when the node has no room for new work, is draining, or has the tree already.
   */
  public boolean reserve(UUID rootRunId) {
    return reserve(rootRunId, newWorkLimit());
  }

  /**
   * Reserves room for a tree this node claims: new work (a pending run) within the new-work share,
   * recovery up to the node's limit, and with {@code beyondCapacity} without checking it (for a
   * client's explicit request, such as cancelling a pending run while every node is full).
   */
  public boolean reserveForClaim(UUID rootRunId, boolean newWork, boolean beyondCapacity) {
    int limit =
        beyondCapacity ? Integer.MAX_VALUE : newWork ? newWorkLimit() : config.maxConcurrentRuns();
    return reserve(rootRunId, limit);
  }

  private boolean reserve(UUID rootRunId, int limit) {
    if (draining) {
      return false;
    }
    while (true) {
      int current = occupied.get();
      if (current >= limit) {
        return false;
      }
      if (occupied.compareAndSet(current, current + 1)) {
        break;
      }
    }
    if (!owned.add(rootRunId)) {
      occupied.decrementAndGet();
      return false;
    }
    return true;
  }

  /** Gives back a reservation that did not become a tree. */
  public void unreserve(UUID rootRunId) {
    if (owned.remove(rootRunId)) {
      occupied.decrementAndGet();
    }
  }

  /** Root runs this node executes right now. */
  public Set<UUID> ownedRoots() {
    return Set.copyOf(owned);
  }

  public boolean owns(UUID rootRunId) {
    return owned.contains(rootRunId);
  }

  public int activeCount() {
    return owned.size();
  }

  /**
   * What the engine holds for a tree, for diagnostics. Reads loop-confined state without the loop:
   * only call it while the engine is idle (tests, the simulation).
   */
  public String describe(UUID rootRunId) {
    ActiveTree tree = trees.get(rootRunId);
    if (tree == null) {
      return owned.contains(rootRunId) ? "reserved, no tree" : "not here";
    }
    return "token="
        + tree.token
        + " lastSeq="
        + tree.state.lastSeq()
        + " buffer="
        + tree.buffer.size()
        + " inFlight="
        + (tree.inFlight == null ? 0 : tree.inFlight.size())
        + " appendFailures="
        + tree.appendFailures
        + " running="
        + tree.running.keySet()
        + " settling="
        + tree.settling
        + " inbox="
        + tree.inbox.size()
        + " suspended="
        + suspended
        + " draining="
        + draining;
  }

  // --- listeners -------------------------------------------------------------------------------

  public void addListener(RunEventListener listener) {
    listeners.add(listener);
  }

  public void removeListener(RunEventListener listener) {
    listeners.remove(listener);
  }

  void emit(RunEvent event) {
    for (RunEventListener listener : listeners) {
      try {
        listener.onEvent(event);
      } catch (RuntimeException failure) {
        log.warn("a run event listener failed on {}", event, failure);
      }
    }
  }

  // --- entry points ---------------------------------------------------------------------------

  /**
   * Which lease the node's tokens come from: it changes the moment the lease is lost. A claim or a
   * submit reads it before it takes its token and hands it to {@link #adopt}.
   */
  long leaseEpoch() {
    return leaseEpoch.get();
  }

  /**
   * The node's lease is gone ({@code why}: lost, or released at shutdown): from now on no step
   * starts, no claim or submit whose token came from that lease is adopted, and every tree is
   * dropped.
   */
  public CompletableFuture<Void> leaseEnded(String why) {
    leaseEpoch.incrementAndGet();
    suspended = true;
    return dropAll(why);
  }

  /**
   * Takes over a tree that was just claimed (its claim is journaled, {@code state} holds it). The
   * caller's capacity reservation passes to the tree. A tree whose token came from a lease lost
   * since ({@code epoch} is not the current {@link #leaseEpoch}) is not adopted: the node gives
   * back its reservation, and whoever claims the tree next fences the journaled claim out.
   */
  void adopt(
      UUID rootId,
      long token,
      long epoch,
      boolean keyed,
      TreeState state,
      Map<String, io.baton.flow.Flow> flowsByHash,
      List<Signal> signals) {
    owned.add(rootId);
    onLoop(
        () -> {
          if (epoch != leaseEpoch.get() && !Defect.ADOPT_AFTER_LOST.isActive()) {
            log.warn(
                "node {} does not adopt run {}: its token {} came from a lease lost since",
                nodeId(),
                rootId,
                token);
            unreserve(rootId);
            return;
          }
          ActiveTree tree = new ActiveTree(rootId, token, epoch, keyed, state, flowsByHash);
          tree.inbox.addAll(signals);
          ActiveTree previous = trees.put(rootId, tree);
          if (previous != null) {
            log.warn("run {} adopted again with token {}; dropping the older copy", rootId, token);
            stopWork(previous);
          }
          driver.drive(tree);
        });
  }

  /** Hands signals to the trees they address; signals for trees not here are ignored. */
  public void deliver(Collection<Signal> signals) {
    onLoop(
        () -> {
          for (Signal signal : signals) {
            ActiveTree tree = trees.get(signal.rootRunId());
            if (tree != null
                && tree.inbox.stream().noneMatch(s -> s.id() == signal.id())
                && !tree.signalsToDelete.contains(signal.id())
                && !tree.signalsInFlight.contains(signal.id())) {
              tree.inbox.add(signal);
              driver.drive(tree);
            }
          }
        });
  }

  /** While suspended (the lease could not be renewed in time) no step starts. */
  public void setSuspended(boolean suspended) {
    this.suspended = suspended;
    if (!suspended) {
      onLoop(() -> List.copyOf(trees.values()).forEach(driver::drive));
    }
  }

  boolean mayStartSteps() {
    return !suspended && !draining;
  }

  /**
   * Whether an attempt whose start is already journaled may be invoked: not while suspended, but
   * during a drain (the attempt began before it, and the drain waits for it).
   */
  boolean mayInvoke() {
    return !suspended;
  }

  /** Stops starting steps and taking trees, for a graceful shutdown. */
  public void startDraining() {
    draining = true;
  }

  public boolean isDraining() {
    return draining;
  }

  /**
   * Completes once no step is running and nothing waits to be journaled, or when {@code timeout}
   * passes (then with false).
   */
  public CompletableFuture<Boolean> awaitQuiet(Duration timeout) {
    CompletableFuture<Boolean> done = new CompletableFuture<>();
    Instant deadline = scheduler.now().plus(timeout);
    pollQuiet(done, deadline);
    return done;
  }

  private void pollQuiet(CompletableFuture<Boolean> done, Instant deadline) {
    onLoop(
        () -> {
          boolean quiet =
              trees.values().stream()
                  .allMatch(
                      t ->
                          t.running.isEmpty()
                              && t.buffer.isEmpty()
                              && t.inFlight == null
                              && t.settling.isEmpty());
          if (quiet) {
            done.complete(true);
          } else if (!scheduler.now().isBefore(deadline)) {
            done.complete(false);
          } else {
            scheduler.schedule(Duration.ofMillis(20), () -> pollQuiet(done, deadline));
          }
        });
  }

  /**
   * Forgets every tree without releasing or journaling anything: the lease was lost, so another
   * node may own them now. Running invocations are cancelled; their results are ignored.
   */
  public CompletableFuture<Void> dropAll(String reason) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    onLoop(
        () -> {
          if (!trees.isEmpty()) {
            log.warn("node {} drops {} runs: {}", nodeId(), trees.size(), reason);
          }
          for (ActiveTree tree : List.copyOf(trees.values())) {
            retire(tree, false);
          }
          done.complete(null);
        });
    return done;
  }

  void onLoop(Runnable task) {
    loop.execute(
        () -> {
          try {
            task.run();
          } catch (RuntimeException failure) {
            metrics.loopFailure();
            log.error("engine task failed on node {}", nodeId(), failure);
          }
        });
  }

  void drive(ActiveTree tree) {
    driver.drive(tree);
  }

  /**
   * Whether the tree was adopted under the node's current lease. A tree of a lost lease is dropped
   * at once, even when the lease was granted afresh before the drop came round on the loop.
   */
  boolean current(ActiveTree tree) {
    return tree.epoch == leaseEpoch.get() || Defect.ADOPT_AFTER_LOST.isActive();
  }

  void driveLater(ActiveTree tree) {
    onLoop(() -> driver.drive(tree));
  }

  // --- journal writes ----------------------------------------------------------------------------

  /** Submits the tree's buffered events as its next append, unless one is in flight. */
  void flush(ActiveTree tree) {
    if (tree.inFlight != null || tree.buffer.isEmpty() || tree.retired) {
      return;
    }
    long seq = tree.state.lastSeq();
    Instant now = scheduler.now();
    List<JournalEntry> entries = new ArrayList<>(tree.buffer.size());
    for (PendingEvent pending : tree.buffer) {
      entries.add(new JournalEntry(pending.runId(), tree.rootId, ++seq, now, pending.event()));
    }
    tree.inFlight = List.copyOf(tree.buffer);
    tree.buffer.clear();
    tree.signalsInFlight = List.copyOf(tree.signalsToDelete);
    tree.signalsToDelete.clear();
    tree.inFlightRequest = new AppendRequest(tree.rootId, tree.token, entries);
    submit(tree, tree.inFlightRequest);
  }

  private void submit(ActiveTree tree, AppendRequest request) {
    long started = System.nanoTime();
    io.append(request)
        .whenComplete(
            (result, failure) ->
                onLoop(
                    () -> appended(tree, request, result, failure, System.nanoTime() - started)));
  }

  private void appended(
      ActiveTree tree, AppendRequest request, AppendResult result, Throwable failure, long nanos) {
    if (tree.retired || tree.inFlightRequest != request) {
      return;
    }
    if (failure != null) {
      retryAppend(tree, request, failure);
      return;
    }
    metrics.appendLatency(nanos);
    tree.appendFailures = 0;
    if (result instanceof AppendResult.Appended) {
      acknowledged(tree, request);
    } else if (result instanceof AppendResult.FencedOut fenced) {
      metrics.fencedOut();
      log.warn(
          "node {} was fenced out of run {}: its token {} is stale, the current token is {};"
              + " dropping the run",
          nodeId(),
          tree.rootId,
          fenced.staleToken(),
          fenced.currentToken());
      retire(tree, false);
    } else {
      log.error(
          "node {} could not append to run {}: {}; dropping the run",
          nodeId(),
          tree.rootId,
          result);
      retire(tree, false);
    }
  }

  private void retryAppend(ActiveTree tree, AppendRequest request, Throwable failure) {
    metrics.journalRetry();
    tree.appendFailures++;
    long factor = 1L << Math.min(tree.appendFailures - 1, 10);
    Duration wait = FIRST_STORE_RETRY.multipliedBy(factor);
    if (wait.compareTo(config.storeRetryMax()) > 0) {
      wait = config.storeRetryMax();
    }
    if (tree.appendFailures == 1 || tree.appendFailures % 20 == 0) {
      log.warn(
          "journal write for run {} failed ({} times), retrying in {}: {}",
          tree.rootId,
          tree.appendFailures,
          wait,
          failure.toString());
    }
    scheduler.schedule(
        wait,
        () ->
            onLoop(
                () -> {
                  if (!tree.retired && tree.inFlightRequest == request) {
                    submit(tree, request);
                  }
                }));
  }

  private void acknowledged(ActiveTree tree, AppendRequest request) {
    List<PendingEvent> settled = tree.inFlight;
    tree.inFlight = null;
    tree.inFlightRequest = null;
    for (JournalEntry entry : request.entries()) {
      tree.state.apply(entry);
      Announcements.announce(this, tree, entry);
    }
    for (PendingEvent pending : settled) {
      if (pending.settles() != null) {
        tree.settling.remove(pending.settles());
      }
    }
    if (!tree.signalsInFlight.isEmpty()) {
      List<Long> done = tree.signalsInFlight;
      tree.signalsInFlight = List.of();
      io.call(
          "delete signals",
          () -> {
            metadata.deleteSignals(done);
            return null;
          });
    }
    driver.drive(tree);
  }

  // --- retiring -------------------------------------------------------------------------------

  /** Called when this node parks a tree that must wake at a known time. */
  @FunctionalInterface
  public interface ParkListener {
    void parked(UUID rootRunId, Instant wakeAt);
  }

  private volatile ParkListener parkListener = (root, wakeAt) -> {};

  public void onParked(ParkListener listener) {
    this.parkListener = listener;
  }

  /** Removes the tree from this node; with {@code release} its lease is released. */
  void retire(ActiveTree tree, boolean release) {
    if (tree.retired) {
      return;
    }
    RunState root = tree.state.root();
    if (release && root.status() == RunStatus.WAITING && root.wakeAt() != null) {
      parkListener.parked(tree.rootId, root.wakeAt());
    }
    tree.retired = true;
    stopWork(tree);
    if (release) {
      deleteStaleSignals(tree);
    }
    if (trees.get(tree.rootId) == tree) {
      trees.remove(tree.rootId);
      owned.remove(tree.rootId);
      occupied.decrementAndGet();
    }
    if (release && tree.keyed) {
      io.release(List.of(tree.rootId))
          .whenComplete(
              (notOwned, failure) -> {
                if (failure != null) {
                  log.warn("could not release run {}: {}", tree.rootId, failure.toString());
                }
              });
    }
  }

  /**
   * A tree that leaves this node finished or parked may hold signals it found stale after its last
   * append was submitted; nothing else would delete them. (A tree dropped without release keeps its
   * signals: its next owner applies them.)
   */
  private void deleteStaleSignals(ActiveTree tree) {
    if (tree.signalsToDelete.isEmpty() || Defect.SIGNALS_LEAK.isActive()) {
      return;
    }
    List<Long> stale = List.copyOf(tree.signalsToDelete);
    tree.signalsToDelete.clear();
    io.call(
        "delete stale signals",
        () -> {
          metadata.deleteSignals(stale);
          return null;
        });
  }

  private static void stopWork(ActiveTree tree) {
    tree.retired = true;
    tree.running.values().forEach(Attempt::cancel);
    tree.running.clear();
    if (tree.wakeTimer != null) {
      tree.wakeTimer.cancel();
    }
  }
}

package io.baton.engine;

import com.google.errorprone.annotations.CanIgnoreReturnValue;
import io.baton.capability.CapabilityRegistry;
import io.baton.flow.Flow;
import io.baton.internal.Defect;
import io.baton.journal.RunStatus;
import io.baton.journal.replay.RunState;
import io.baton.journal.replay.TreeState;
import io.baton.store.Signal;
import io.baton.store.SignalInbox;
import io.baton.time.Futures;
import io.baton.time.Scheduler;
import io.baton.time.SerialExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
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

  private final EngineConfig config;
  private final Scheduler scheduler;
  private final EngineIo io;
  private final EngineMetrics metrics;
  private final SerialExecutor loop;
  private final Capacity capacity;
  private final RunEvents events = new RunEvents();
  private final Announcements announcements;
  private final SignalReceipts receipts;
  private final AppendPipeline appends;
  private final Checkpoints checkpoints;
  private final TreeDriver driver;
  private final Map<UUID, ActiveTree> trees = new HashMap<>();
  private final AtomicLong leaseEpoch = new AtomicLong();

  /** Roots let go lately (scheduler nanos): the claimer leaves them to their receiver a while. */
  private final Map<UUID, Long> letGoAt = new ConcurrentHashMap<>();

  /** Roots moved here by rebalancing (scheduler nanos): they are not moved on for a cool-down. */
  private final Map<UUID, Long> movedInAt = new ConcurrentHashMap<>();

  private volatile boolean suspended;
  private volatile boolean traceAllRuns;

  /** The engine's loop as its collaborators see it. */
  private final TreeLoop treeLoop =
      new TreeLoop() {
        @Override
        public void execute(Runnable task) {
          onLoop(task);
        }

        @Override
        public void drive(ActiveTree tree) {
          driver.drive(tree);
        }

        @Override
        public void retire(ActiveTree tree, boolean release) {
          Engine.this.retire(tree, release);
        }

        @Override
        public void handOver(ActiveTree tree) {
          Engine.this.handOver(tree);
        }
      };

  public Engine(
      EngineConfig config,
      Scheduler scheduler,
      EngineIo io,
      CapabilityRegistry capabilities,
      FlowRegistry flows,
      SignalInbox signalInbox,
      EngineMetrics metrics,
      RandomGenerator random) {
    this.config = config;
    this.scheduler = scheduler;
    this.io = io;
    this.metrics = metrics;
    this.loop = new SerialExecutor(scheduler);
    this.capacity = new Capacity(config);
    this.announcements = new Announcements(metrics, events);
    this.receipts = new SignalReceipts(io, signalInbox);
    this.checkpoints =
        new Checkpoints(
            io, scheduler, treeLoop, config.checkpointEntries(), config.checkpointBytes());
    this.appends =
        new AppendPipeline(
            config.nodeId(),
            io,
            scheduler,
            metrics,
            config.storeRetryMax(),
            treeLoop,
            announcements,
            receipts,
            checkpoints);
    StepInvoker invoker =
        new StepInvoker(
            config.nodeId(),
            scheduler,
            io,
            capabilities,
            flows,
            random,
            treeLoop,
            this::mayInvoke,
            () -> traceAllRuns,
            config.limits());
    this.driver =
        new TreeDriver(
            scheduler,
            config.parkAfter(),
            invoker,
            new SignalHandler(receipts),
            appends,
            new Wakeups(scheduler, treeLoop),
            treeLoop,
            this::mayStartSteps,
            this::current);
    metrics.registry().gauge(EngineMetrics.OWNED_RUNS, () -> capacity::count);
  }

  public String nodeId() {
    return config.nodeId();
  }

  /** The engine's I/O: where its collaborators (claims, client commands) make their calls. */
  EngineIo io() {
    return io;
  }

  Scheduler scheduler() {
    return scheduler;
  }

  EngineMetrics metrics() {
    return metrics;
  }

  Announcements announcements() {
    return announcements;
  }

  SignalReceipts receipts() {
    return receipts;
  }

  // --- capacity -------------------------------------------------------------------------------

  /** Run trees this node could still take on to recover them (orphans, wakes, its own). */
  public int freeCapacity() {
    return capacity.free();
  }

  /**
   * Run trees this node could still take on as new work (submissions, pending runs): all but the
   * share held back for recovery ({@link EngineConfig#recoveryReserve()}), so that a node kept full
   * by submissions still wakes its due parked runs and re-claims its own interrupted ones.
   */
  public int freeCapacityForNewWork() {
    return capacity.freeForNewWork();
  }

  /**
   * Reserves room for a tree this node submits and marks it as this node's while it is being
   * created; false when the node has no room for new work, is draining, or has the tree already.
   */
  public boolean reserve(UUID rootRunId) {
    return capacity.reserveNewWork(rootRunId);
  }

  /**
   * Reserves room for a tree this node claims: new work (a pending run) within the new-work share,
   * recovery up to the node's limit, and with {@code beyondCapacity} without checking it (for a
   * client's explicit request, such as cancelling a pending run while every node is full).
   */
  public boolean reserveForClaim(UUID rootRunId, boolean newWork, boolean beyondCapacity) {
    return capacity.reserveForClaim(rootRunId, newWork, beyondCapacity);
  }

  /** Gives back a reservation that did not become a tree. */
  public void unreserve(UUID rootRunId) {
    capacity.release(rootRunId);
  }

  /** Root runs this node executes right now. */
  public Set<UUID> ownedRoots() {
    return capacity.held();
  }

  public boolean owns(UUID rootRunId) {
    return capacity.holds(rootRunId);
  }

  /**
   * How long this node's journal appends have been failing with no success in between; zero when
   * they succeed (or none was tried). The gray-failure watch gives the node's runs away after long.
   */
  public Duration appendsFailingFor() {
    return appends.failingFor();
  }

  public int activeCount() {
    return capacity.count();
  }

  /**
   * What the engine holds for a tree, for diagnostics. Read on the loop: the future completes once
   * the loop has come round to it.
   */
  public CompletableFuture<String> describe(UUID rootRunId) {
    CompletableFuture<String> described = new CompletableFuture<>();
    onLoop(() -> described.complete(describeOnLoop(rootRunId)));
    return described;
  }

  private String describeOnLoop(UUID rootRunId) {
    ActiveTree tree = trees.get(rootRunId);
    if (tree == null) {
      return capacity.holds(rootRunId) ? "reserved, no tree" : "not here";
    }
    return "token="
        + tree.token
        + " lastSeq="
        + tree.state.lastSeq()
        + " appends="
        + tree.appends.state()
        + " buffered="
        + tree.appends.buffered().size()
        + " inFlight="
        + tree.appends.inFlight().size()
        + " appendFailures="
        + tree.appends.failures()
        + " running="
        + tree.running.keySet()
        + " unjournaled="
        + tree.unjournaled
        + " inbox="
        + tree.inbox.size()
        + " suspended="
        + suspended
        + " draining="
        + isDraining();
  }

  // --- listeners -------------------------------------------------------------------------------

  public void addListener(RunEventListener listener) {
    events.add(listener);
  }

  public void removeListener(RunEventListener listener) {
    events.remove(listener);
  }

  /**
   * Whether step attempts of runs that continue no caller's trace carry a {@code traceparent} (of
   * the run tree's own trace) too; set when this node exports traces. Runs submitted with a
   * traceparent always propagate it.
   */
  public void traceAllRuns(boolean traced) {
    this.traceAllRuns = traced;
  }

  /**
   * Tells the listeners of an event not journaled by this engine (startup recovery's reminders).
   */
  public void emit(RunEvent event) {
    events.emit(event);
  }

  /** Called when this node parks a tree that must wake at a known time. */
  @FunctionalInterface
  public interface ParkListener {
    void parked(UUID rootRunId, Instant wakeAt);
  }

  public void onParked(ParkListener listener) {
    events.onParked(listener);
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
  @CanIgnoreReturnValue // completes when the trees are dropped; it never fails
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
      Map<String, Flow> flowsByHash,
      List<Signal> signals) {
    capacity.hold(rootId);
    onLoop(
        () -> {
          if (epoch != leaseEpoch.get() && !Defect.ADOPT_AFTER_LOST.isActive()) {
            log.warn(
                "node {} does not adopt run {}: its token {} came from a lease lost since",
                nodeId(),
                rootId,
                token);
            capacity.release(rootId);
            return;
          }
          ActiveTree tree = new ActiveTree(rootId, token, epoch, keyed, state, flowsByHash);
          letGoAt.remove(rootId);
          tree.inbox.addAll(signals);
          ActiveTree previous = trees.put(rootId, tree);
          if (previous != null) {
            log.warn("run {} adopted again with token {}; dropping the older copy", rootId, token);
            previous.retire();
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
                && tree.deferred.stream().noneMatch(s -> s.id() == signal.id())
                && !tree.appends.answers(signal.id())) {
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

  private boolean mayStartSteps() {
    return !suspended && !capacity.closed();
  }

  /**
   * Whether an attempt whose start is already journaled may be invoked: not while suspended, but
   * during a drain (the attempt began before it, and the drain waits for it).
   */
  private boolean mayInvoke() {
    return !suspended;
  }

  /** Stops starting steps and taking trees, for a graceful shutdown. */
  public void startDraining() {
    capacity.close();
  }

  public boolean isDraining() {
    return capacity.closed();
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
          if (trees.values().stream().allMatch(ActiveTree::quiet)) {
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

  /**
   * Whether the tree was adopted under the node's current lease. A tree of a lost lease is dropped
   * at once, even when the lease was granted afresh before the drop came round on the loop.
   */
  private boolean current(ActiveTree tree) {
    return tree.epoch == leaseEpoch.get() || Defect.ADOPT_AFTER_LOST.isActive();
  }

  // --- letting go (rebalancing) ---------------------------------------------------------------

  /**
   * Lets up to {@code count} running trees go to another node, each at its next step boundary: a
   * chosen tree starts no new step, and once nothing of it is in flight or unjournaled it leaves
   * this node without releasing anything (the caller offers it through the lease service). Trees
   * moved here by rebalancing less than {@code coolDown} ago ({@link #movedIn}) stay. Completes
   * with the roots that left, once all have or when {@code within} has passed (the others go on
   * here).
   */
  public CompletableFuture<List<UUID>> letGo(int count, Duration coolDown, Duration within) {
    return letGo(count, coolDown, within, root -> {});
  }

  /**
   * As {@link #letGo(int, Duration, Duration)}, and tells {@code eachLeft} of every root as it
   * leaves (on the engine's loop: it must not block), so that the caller can pass it on at once
   * rather than when the whole batch is done.
   */
  public CompletableFuture<List<UUID>> letGo(
      int count, Duration coolDown, Duration within, Consumer<UUID> eachLeft) {
    CompletableFuture<List<UUID>> result = new CompletableFuture<>();
    onLoop(
        () -> {
          long now = scheduler.nanoTime();
          List<ActiveTree> chosen =
              trees.values().stream()
                  .filter(
                      t ->
                          !t.retired()
                              && t.leaving == null
                              && t.state.root().status() == RunStatus.RUNNING
                              && !movedInWithin(t.rootId, now, coolDown))
                  .sorted(Comparator.comparing((ActiveTree t) -> t.quiet() ? 0 : 1))
                  .limit(Math.max(0, count))
                  .toList();
          LettingGo batch = new LettingGo(chosen.size(), eachLeft);
          Futures.whenComplete(batch.done, (left, failure) -> result.complete(left));
          for (ActiveTree tree : chosen) {
            tree.leaving = batch;
          }
          for (ActiveTree tree : chosen) {
            driver.drive(tree);
          }
          if (batch.open()) {
            scheduler.schedule(
                within,
                () ->
                    onLoop(
                        () -> {
                          batch.timeUp();
                          for (ActiveTree tree : List.copyOf(trees.values())) {
                            if (tree.leaving == batch) {
                              tree.leaving = null;
                              driver.drive(tree);
                            }
                          }
                        }));
          }
        });
    return result;
  }

  /** Records that these roots came here by rebalancing: they stay for the cool-down. */
  public void movedIn(Collection<UUID> rootIds) {
    long now = scheduler.nanoTime();
    rootIds.forEach(id -> movedInAt.put(id, now));
  }

  /**
   * Held trees moved here by rebalancing less than {@code coolDown} ago: {@link #letGo} keeps them,
   * so the node announces them and the others do not plan on its giving them away.
   */
  public int coolingDown(Duration coolDown) {
    long now = scheduler.nanoTime();
    int cooling = 0;
    for (Map.Entry<UUID, Long> entry : movedInAt.entrySet()) {
      if (now - entry.getValue() < coolDown.toNanos() && capacity.holds(entry.getKey())) {
        cooling++;
      }
    }
    return cooling;
  }

  private boolean movedInWithin(UUID rootId, long now, Duration coolDown) {
    Long at = movedInAt.get(rootId);
    if (at == null) {
      return false;
    }
    if (now - at >= coolDown.toNanos()) {
      movedInAt.remove(rootId);
      return false;
    }
    return true;
  }

  /**
   * At most {@code max} roots let go to another node at least {@code grace} ago: the caller checks
   * whether their receiver took them (it may have left before it did). They stay remembered until
   * adopted here again or {@link #forgetLetGo forgotten}, so that a check that fails (the store
   * unreachable, a claim that failed) is made again. Read from memory, not from a scan of this
   * node's runs in the store, which reads a window of the oldest and on a node with thousands of
   * runs never reaches a recent one.
   */
  public List<UUID> letGoBefore(Duration grace, int max) {
    long now = scheduler.nanoTime();
    List<UUID> due = new ArrayList<>();
    for (Map.Entry<UUID, Long> entry : letGoAt.entrySet()) {
      if (due.size() >= max) {
        break;
      }
      if (now - entry.getValue() >= grace.toNanos()) {
        due.add(entry.getKey());
      }
    }
    return due;
  }

  /** Forgets a root let go: its receiver took it, or it ended. */
  public void forgetLetGo(UUID rootId) {
    letGoAt.remove(rootId);
  }

  /** Whether the root was let go to another node less than {@code within} ago. */
  public boolean letGoWithin(UUID rootId, Duration within) {
    Long at = letGoAt.get(rootId);
    if (at == null) {
      return false;
    }
    if (scheduler.nanoTime() - at >= within.toNanos()) {
      letGoAt.remove(rootId);
      return false;
    }
    return true;
  }

  private void handOver(ActiveTree tree) {
    LettingGo batch = tree.leaving;
    if (batch == null || !batch.open() || tree.retired()) {
      tree.leaving = null;
      return;
    }
    letGoAt.put(tree.rootId, scheduler.nanoTime());
    retire(tree, false);
    batch.left(tree.rootId);
  }

  // --- retiring -------------------------------------------------------------------------------

  /** Removes the tree from this node; with {@code release} its lease is released. */
  private void retire(ActiveTree tree, boolean release) {
    if (tree.retired()) {
      return;
    }
    RunState root = tree.state.root();
    if (release && root.status() == RunStatus.WAITING) {
      checkpoints.parked(tree);
      if (root.wakeAt() != null) {
        events.parked(tree.rootId, root.wakeAt());
      }
    }
    tree.retire();
    if (release) {
      deleteStaleSignals(tree);
    }
    if (trees.get(tree.rootId) == tree) {
      trees.remove(tree.rootId);
      capacity.release(tree.rootId);
      if (release) {
        movedInAt.remove(tree.rootId);
      }
    }
    if (release && tree.keyed) {
      Futures.whenComplete(
          io.release(List.of(tree.rootId)),
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
    if (Defect.SIGNALS_LEAK.isActive()) {
      return;
    }
    receipts.answered("delete stale signals", tree.appends.takeAnswered());
  }
}

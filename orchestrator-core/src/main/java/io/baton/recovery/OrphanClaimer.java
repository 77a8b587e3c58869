package io.baton.recovery;

import com.google.errorprone.annotations.CanIgnoreReturnValue;
import io.baton.engine.ClaimOutcome;
import io.baton.engine.ClaimService;
import io.baton.engine.Engine;
import io.baton.engine.EngineIo;
import io.baton.internal.Defect;
import io.baton.journal.ClaimReason;
import io.baton.journal.RunStatus;
import io.baton.lease.LeaseManager;
import io.baton.lease.LiveNodes;
import io.baton.lease.NodeInfo;
import io.baton.lease.Orphan;
import io.baton.lease.OrphanListener;
import io.baton.lease.Subscription;
import io.baton.store.RunIndex;
import io.baton.store.RunRecord;
import io.baton.time.Futures;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adopts runs nobody executes. Orphans pushed by the lease service's watch are claimed at once
 * (after a stagger that grows with this node's load, so the least loaded nodes claim first); a
 * periodic pass every {@code checkInterval} is the safety net: runs recorded as owned by this node
 * that it does not execute, RUNNING runs of nodes absent from the live list (fenced below the
 * revision the list was read at), parked runs that fell due and pending runs, at most {@code
 * maxClaimsPerCheck} per pass and never beyond this node's free capacity. Runs this node let go
 * that no receiver claimed may outnumber that: a pass that found more of them than it could take,
 * and took some back, is followed at once by passes over those runs alone. Racing nodes learn
 * {@code OwnedBy} from the lease service, heal the recorded owner, and move on. Thread-safe; start
 * once, {@link #stop()} is idempotent.
 */
public final class OrphanClaimer implements OrphanListener {
  private static final Logger log = LoggerFactory.getLogger(OrphanClaimer.class);

  /** How many set-aside roots a query reads past at most (a bound on its cost). */
  static final int MAX_SET_ASIDE_SKIPPED = 1_000;

  /**
   * How many follow-ups may come after a pass at once, between two scheduled ones, while runs this
   * node let go come back: a receiver that left before claiming may leave thousands, and the claim
   * budget per pass would otherwise take them back at one budget a check interval.
   */
  static final int MAX_FOLLOW_UPS = 100;

  /** How long a root let go to another node is left to it before this node takes it back. */
  static final Duration LET_GO_GRACE = Duration.ofSeconds(30);

  private final Engine engine;
  private final EngineIo io;
  private final ClaimService claims;
  private final RunIndex runIndex;
  private final LeaseManager leases;
  private final Scheduler scheduler;
  private final RecoveryConfig config;
  private Subscription watch;
  private Scheduler.Cancellable nextPass;
  private volatile boolean running;
  private volatile boolean passInProgress;
  // Follow-ups since the last scheduled pass (at most MAX_FOLLOW_UPS).
  private int followUps;
  private final AtomicBoolean pendingClaimDue = new AtomicBoolean();

  public OrphanClaimer(
      Engine engine,
      EngineIo io,
      ClaimService claims,
      RunIndex runIndex,
      LeaseManager leases,
      Scheduler scheduler,
      RecoveryConfig config) {
    this.engine = engine;
    this.io = io;
    this.claims = claims;
    this.runIndex = runIndex;
    this.leases = leases;
    this.scheduler = scheduler;
    this.config = config;
  }

  public synchronized void start() {
    if (running || !config.enabled()) {
      return;
    }
    running = true;
    watch = leases.watchOrphans(this);
    // the first pass runs at once: a restarted node picks up due parked and pending runs now
    schedulePass(Duration.ZERO);
  }

  public synchronized void stop() {
    running = false;
    if (watch != null) {
      watch.close();
    }
    if (nextPass != null) {
      nextPass.cancel();
    }
  }

  @Override
  public void onOrphans(List<Orphan> orphans) {
    if (!running) {
      return;
    }
    Map<UUID, String> handoffs = new LinkedHashMap<>();
    Map<UUID, String> expired = new LinkedHashMap<>();
    for (Orphan orphan : orphans) {
      (orphan.handoff() ? handoffs : expired).put(orphan.runId(), orphan.previousOwner());
    }
    Duration stagger = stagger();
    scheduler.schedule(
        stagger,
        () -> {
          claimPushed(handoffs, ClaimReason.HANDOFF);
          claimPushed(expired, ClaimReason.ORPHAN);
        });
  }

  /** Claims trees their owners lost (root to the node that lost it), but not those set aside. */
  private void claimPushed(Map<UUID, String> lostBy, ClaimReason reason) {
    Map<UUID, String> claimable = new LinkedHashMap<>(lostBy);
    claimable.keySet().removeIf(this::excluded);
    if (!claimable.isEmpty() && running) {
      claims.claimLost(claimable, reason);
    }
  }

  private boolean excluded(UUID root) {
    return claims.setAside().excluded(root) && !Defect.NO_POISON_ISOLATION.isActive();
  }

  /**
   * A node is gone: the runs it started on its node token hold no run key, so they are found among
   * the RUNNING runs recorded as its own (one indexed query) and claimed like pushed orphans. Only
   * runs fenced below the revision at which its node key went away: by the time this node looks,
   * the other node may hold a fresh lease and run new runs under it.
   */
  @Override
  public void onNodeGone(String nodeId, boolean handoff, long revision) {
    if (!running || nodeId.equals(engine.nodeId())) {
      return;
    }
    long fencedBelow = Defect.CLAIMS_ACROSS_LEASES.isActive() ? Long.MAX_VALUE : revision;
    scheduler.schedule(
        stagger(),
        () ->
            io.call(
                    "find runs of node " + nodeId,
                    () ->
                        runIndex.findRunningRootsFencedBelow(
                            nodeId, fencedBelow, config.maxStartupRecovery()))
                .thenAccept(
                    roots ->
                        claimPushed(
                            lostBy(roots, nodeId),
                            handoff ? ClaimReason.HANDOFF : ClaimReason.ORPHAN))
                .exceptionally(
                    failure -> {
                      log.warn(
                          "could not find the runs of departed node {}: {}",
                          nodeId,
                          failure.toString());
                      return null;
                    }));
    if (handoff && !Defect.PENDING_WAITS_FOR_PASS.isActive()) {
      scheduler.schedule(stagger(), this::claimPendingNow);
    }
  }

  /**
   * Another node stored runs PENDING (see {@link LeaseManager#hintPending}): claims them after the
   * load stagger, so the emptiest node goes first. Hints that arrive while a claim is due are
   * carried by it. A node's own hints are left alone: it stored the runs because it will not start
   * them.
   */
  @Override
  public void onPendingRuns(String fromNode) {
    if (!running || fromNode.equals(engine.nodeId())) {
      return;
    }
    if (pendingClaimDue.compareAndSet(false, true)) {
      scheduler.schedule(
          stagger(),
          () -> {
            pendingClaimDue.set(false);
            claimPendingNow();
          });
    }
  }

  /**
   * Claims the runs stored PENDING, as a pass would, without waiting for one. A node that is
   * draining stores what it is sent as PENDING until it leaves, and nothing else tells the others:
   * its departure is the moment to look.
   */
  private void claimPendingNow() {
    int budget = Math.min(config.maxClaimsPerCheck(), engine.freeCapacityForNewWork());
    if (budget <= 0 || !running) {
      return;
    }
    Futures.whenComplete(
        io.call("find pending runs", () -> runIndex.findPendingRoots(budget))
            .thenCompose(
                pending ->
                    claims.claim(
                        pending.stream().filter(root -> !excluded(root)).toList(),
                        ClaimReason.PENDING)),
        (claimed, failure) -> {
          if (failure != null) {
            log.warn("could not claim pending runs: {}", failure.toString());
          }
        });
  }

  private static Map<UUID, String> lostBy(List<UUID> roots, String nodeId) {
    Map<UUID, String> lost = new LinkedHashMap<>();
    roots.forEach(root -> lost.put(root, nodeId));
    return lost;
  }

  @Override
  public void onWatchGap(String reason) {
    log.warn("orphan watch lost events ({}); scanning now", reason);
    scheduler.execute(this::pass);
  }

  /** Claims one run now (a parked run that got a signal, a pending run). */
  public void nudge(UUID root, ClaimReason reason) {
    claims.claim(List.of(root), reason);
  }

  /** Waits longer the busier this node is: empty nodes claim pushed orphans first. */
  Duration stagger() {
    double load =
        1.0
            - (double) engine.freeCapacity()
                / Math.max(1, engine.freeCapacity() + engine.activeCount());
    return Duration.ofNanos((long) (config.claimStagger().toNanos() * Math.max(0, load)));
  }

  private synchronized boolean mayFollowUp() {
    return running && followUps++ < MAX_FOLLOW_UPS;
  }

  private void schedulePass(Duration delay) {
    synchronized (this) {
      if (running) {
        nextPass =
            scheduler.schedule(
                delay,
                () -> {
                  synchronized (this) {
                    followUps = 0;
                  }
                  pass();
                  schedulePass(config.checkInterval());
                });
      }
    }
  }

  /**
   * One safety-net pass; returns when its claims are done. The pass logs its own failure, so a
   * caller that does not wait for it may drop the future.
   */
  @CanIgnoreReturnValue
  public CompletableFuture<Void> pass() {
    return guarded(
        "orphan pass",
        () -> io.call("find claimable runs", this::candidates).thenCompose(this::claimCandidates));
  }

  /**
   * A pass that takes only runs let go whose receiver never claimed them, after a pass that found
   * more of them than its window held and took some back. The rest of a pass (dead nodes' runs, due
   * and pending runs) waits for the next scheduled one.
   */
  private void followUp() {
    guarded(
        "follow-up pass",
        () ->
            io.call("find runs let go", () -> letGoToClaim(budget() == 0 ? 0 : window(budget())))
                .thenCompose(this::claimLetGo));
  }

  /**
   * Runs a pass unless one is in progress; follows it at once, within {@link #MAX_FOLLOW_UPS},
   * while it took runs let go back and more wait. Claims of let-go runs that keep failing end the
   * follow-ups: the next scheduled pass tries them again.
   */
  @CanIgnoreReturnValue
  private CompletableFuture<Void> guarded(String what, Supplier<CompletableFuture<Boolean>> pass) {
    if (!running || passInProgress) {
      return CompletableFuture.completedFuture(null);
    }
    passInProgress = true;
    return pass.get()
        .whenComplete(
            (followUp, failure) -> {
              passInProgress = false;
              if (failure != null) {
                log.warn("{} on node {} failed: {}", what, engine.nodeId(), failure.toString());
              } else if (followUp && mayFollowUp()) {
                scheduler.execute(this::followUp);
              }
            })
        .thenApply(followUp -> null);
  }

  /** What a pass may claim; {@code interrupted} maps each root to the node that lost it. */
  private record Candidates(
      Map<UUID, String> interrupted, List<UUID> due, List<UUID> pending, LetGo letGo) {}

  /**
   * Runs let go whose receiver never claimed them, found in one look at the engine's memory.
   *
   * @param toClaim those the store still records RUNNING as this node's, to claim back
   * @param forgotten how many were taken by their receiver or ended (forgotten now)
   * @param more whether the look filled its window (more may wait)
   */
  private record LetGo(Map<UUID, String> toClaim, int forgotten, boolean more) {
    static final LetGo NONE = new LetGo(Map.of(), 0, false);

    /**
     * Whether a follow-up is due after a pass whose claims had these outcomes: the look filled its
     * window, and the pass took some runs back or forgot some (claims that all fail take nothing).
     */
    boolean followUpAfter(Map<UUID, ClaimOutcome> claimed) {
      return more
          && (forgotten > 0
              || claimed.values().stream()
                  .anyMatch(o -> o == ClaimOutcome.ADOPTED || o == ClaimOutcome.SETTLED));
    }
  }

  private int budget() {
    return Math.min(config.maxClaimsPerCheck(), engine.freeCapacity());
  }

  private Set<UUID> setAside() {
    return Defect.NO_POISON_ISOLATION.isActive() ? Set.of() : claims.setAside().excluded();
  }

  /** How many rows a query reads for a budget: set-aside roots are read past, not counted. */
  private int window(int budget) {
    return budget + Math.min(setAside().size(), MAX_SET_ASIDE_SKIPPED);
  }

  /**
   * What this pass may claim, at most {@code budget} of each kind. Roots set aside as unloadable
   * are left out, and each query reads past them, so however many there are they cannot hold the
   * window that the others need.
   */
  private Candidates candidates() {
    int budget = budget();
    if (budget == 0) {
      return new Candidates(Map.of(), List.of(), List.of(), LetGo.NONE);
    }
    Set<UUID> aside = setAside();
    int window = window(budget);
    LiveNodes liveNodes = leases.liveNodes();
    Set<String> live = new HashSet<>();
    for (NodeInfo node : liveNodes.nodes()) {
      live.add(node.nodeId());
    }
    live.add(engine.nodeId());
    Map<UUID, String> interrupted = new LinkedHashMap<>();
    for (UUID own : runIndex.findRootsOwnedBy(engine.nodeId(), RunStatus.RUNNING, window)) {
      // a root let go lately waits for the node it was offered to
      if (!engine.owns(own) && !engine.letGoWithin(own, LET_GO_GRACE)) {
        interrupted.put(own, engine.nodeId());
      }
    }
    LetGo letGo = letGoToClaim(window);
    interrupted.putAll(letGo.toClaim());
    for (RunRecord dead : runIndex.findRunningRootsOutside(live, window)) {
      // a run fenced at or after the read was started by a node that announced itself since
      if (dead.ownerToken() < liveNodes.revision() || Defect.CLAIMS_ACROSS_LEASES.isActive()) {
        interrupted.put(dead.runId(), dead.orchestratorId());
      }
    }
    interrupted.keySet().removeAll(aside);
    return new Candidates(
        limit(interrupted, budget),
        limit(runIndex.findDueWaitingRoots(scheduler.now(), window), aside, budget),
        limit(runIndex.findPendingRoots(window), aside, budget),
        letGo);
  }

  /**
   * Runs let go whose receiver never claimed them (it left first, or its claim failed), at most
   * {@code window}: remembered until adopted again or seen taken, so a failed read or claim is
   * tried again.
   */
  private LetGo letGoToClaim(int window) {
    if (Defect.LET_GO_FOUND_BY_SCAN.isActive() || window == 0) {
      return LetGo.NONE;
    }
    List<UUID> letGo = engine.letGoBefore(LET_GO_GRACE, window);
    Map<UUID, String> toClaim = new LinkedHashMap<>();
    int forgotten = 0;
    for (UUID root : letGo) {
      if (!engine.owns(root) && stillOurs(root)) {
        toClaim.put(root, engine.nodeId());
      } else {
        engine.forgetLetGo(root);
        forgotten++;
      }
    }
    return new LetGo(toClaim, forgotten, letGo.size() >= window);
  }

  /** Whether the store records the root RUNNING as this node's (no receiver took it). */
  private boolean stillOurs(UUID root) {
    return runIndex
        .findRun(root)
        .filter(r -> r.status() == RunStatus.RUNNING)
        .filter(r -> engine.nodeId().equals(r.orchestratorId()))
        .isPresent();
  }

  private static Map<UUID, String> limit(Map<UUID, String> lostBy, int max) {
    Map<UUID, String> limited = new LinkedHashMap<>();
    lostBy.entrySet().stream().limit(max).forEach(e -> limited.put(e.getKey(), e.getValue()));
    return limited;
  }

  private static List<UUID> limit(List<UUID> ids, Set<UUID> aside, int max) {
    return ids.stream().filter(id -> !aside.contains(id)).limit(max).toList();
  }

  /** Claims what a pass found; completes with whether a follow-up is due. */
  private CompletableFuture<Boolean> claimCandidates(Candidates found) {
    int budget = budget();
    Map<UUID, String> interrupted = limit(found.interrupted(), budget);
    budget -= interrupted.size();
    List<UUID> due = found.due().stream().limit(Math.max(0, budget)).toList();
    budget -= due.size();
    int forNewWork = Math.min(budget, engine.freeCapacityForNewWork() - due.size());
    List<UUID> pending = found.pending().stream().limit(Math.max(0, forNewWork)).toList();
    CompletableFuture<Map<UUID, ClaimOutcome>> lost =
        claims.claimLost(interrupted, ClaimReason.ORPHAN);
    return CompletableFuture.allOf(
            lost, claims.claim(due, ClaimReason.WAKE), claims.claim(pending, ClaimReason.PENDING))
        .thenApply(done -> found.letGo().followUpAfter(lost.join()));
  }

  /** Claims back the runs a follow-up found; completes with whether another is due. */
  private CompletableFuture<Boolean> claimLetGo(LetGo letGo) {
    Map<UUID, String> toClaim = new LinkedHashMap<>(letGo.toClaim());
    toClaim.keySet().removeAll(setAside());
    return claims
        .claimLost(limit(toClaim, budget()), ClaimReason.ORPHAN)
        .thenApply(letGo::followUpAfter);
  }
}

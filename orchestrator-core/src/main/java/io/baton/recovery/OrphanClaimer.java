package io.baton.recovery;

import com.google.errorprone.annotations.CanIgnoreReturnValue;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adopts runs nobody executes. Orphans pushed by the lease service's watch are claimed at once
 * (after a stagger that grows with this node's load, so the least loaded nodes claim first); a
 * periodic pass every {@code checkInterval} is the safety net: runs recorded as owned by this node
 * that it does not execute, RUNNING runs of nodes absent from the live list (fenced below the
 * revision the list was read at), parked runs that fell due and pending runs, at most {@code
 * maxClaimsPerCheck} per pass and never beyond this node's free capacity. Racing nodes learn {@code
 * OwnedBy} from the lease service, heal the recorded owner, and move on. Thread-safe; start once,
 * {@link #stop()} is idempotent.
 */
public final class OrphanClaimer implements OrphanListener {
  private static final Logger log = LoggerFactory.getLogger(OrphanClaimer.class);

  /** How many set-aside roots a query reads past at most (a bound on its cost). */
  static final int MAX_SET_ASIDE_SKIPPED = 1_000;

  /**
   * How many passes may follow a pass at once, between two scheduled ones, while runs this node let
   * go come back: a receiver that left before claiming may leave thousands, and the claim budget
   * per pass would otherwise take them back at one budget a check interval.
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
  // Set by a pass that found more runs let go and not claimed than its window held; such a pass is
  // followed at once (at most MAX_FOLLOW_UPS times between two scheduled passes).
  private volatile boolean moreLetGo;
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

  private synchronized boolean followUp() {
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
    if (!running || passInProgress) {
      return CompletableFuture.completedFuture(null);
    }
    passInProgress = true;
    return io.call("find claimable runs", this::candidates)
        .thenCompose(this::claimCandidates)
        .whenComplete(
            (done, failure) -> {
              passInProgress = false;
              if (failure != null) {
                log.warn("orphan pass on node {} failed: {}", engine.nodeId(), failure.toString());
              } else if (moreLetGo && followUp()) {
                scheduler.execute(this::pass);
              }
            });
  }

  /** What a pass may claim; {@code interrupted} maps each root to the node that lost it. */
  private record Candidates(Map<UUID, String> interrupted, List<UUID> due, List<UUID> pending) {}

  /**
   * What this pass may claim, at most {@code budget} of each kind. Roots set aside as unloadable
   * are left out, and each query reads past them, so however many there are they cannot hold the
   * window that the others need.
   */
  private Candidates candidates() {
    int budget = Math.min(config.maxClaimsPerCheck(), engine.freeCapacity());
    if (budget == 0) {
      return new Candidates(Map.of(), List.of(), List.of());
    }
    Set<UUID> aside =
        Defect.NO_POISON_ISOLATION.isActive() ? Set.of() : claims.setAside().excluded();
    int window = budget + Math.min(aside.size(), MAX_SET_ASIDE_SKIPPED);
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
    if (!Defect.LET_GO_FOUND_BY_SCAN.isActive()) {
      // runs let go whose receiver never claimed them (it left first, or its claim failed)
      // remembered until adopted again or seen taken: a failed read or claim is tried again
      List<UUID> letGo = engine.letGoBefore(LET_GO_GRACE, window);
      moreLetGo = letGo.size() >= window;
      for (UUID root : letGo) {
        if (engine.owns(root)) {
          engine.forgetLetGo(root);
        } else if (runIndex
            .findRun(root)
            .filter(r -> r.status() == RunStatus.RUNNING)
            .filter(r -> engine.nodeId().equals(r.orchestratorId()))
            .isPresent()) {
          interrupted.put(root, engine.nodeId());
        } else {
          engine.forgetLetGo(root);
        }
      }
    }
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
        limit(runIndex.findPendingRoots(window), aside, budget));
  }

  private static Map<UUID, String> limit(Map<UUID, String> lostBy, int max) {
    Map<UUID, String> limited = new LinkedHashMap<>();
    lostBy.entrySet().stream().limit(max).forEach(e -> limited.put(e.getKey(), e.getValue()));
    return limited;
  }

  private static List<UUID> limit(List<UUID> ids, Set<UUID> aside, int max) {
    return ids.stream().filter(id -> !aside.contains(id)).limit(max).toList();
  }

  private CompletableFuture<Void> claimCandidates(Candidates found) {
    int budget = Math.min(config.maxClaimsPerCheck(), engine.freeCapacity());
    Map<UUID, String> interrupted = limit(found.interrupted(), budget);
    budget -= interrupted.size();
    List<UUID> due = found.due().stream().limit(Math.max(0, budget)).toList();
    budget -= due.size();
    int forNewWork = Math.min(budget, engine.freeCapacityForNewWork() - due.size());
    List<UUID> pending = found.pending().stream().limit(Math.max(0, forNewWork)).toList();
    return CompletableFuture.allOf(
        claims.claimLost(interrupted, ClaimReason.ORPHAN),
        claims.claim(due, ClaimReason.WAKE),
        claims.claim(pending, ClaimReason.PENDING));
  }
}

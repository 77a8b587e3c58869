package io.baton.cluster;

import com.codahale.metrics.Counter;
import io.baton.cluster.ShutdownOrder.ClosingStep;
import io.baton.cluster.ShutdownOrder.HandOffStep;
import io.baton.engine.ClaimService;
import io.baton.engine.Engine;
import io.baton.engine.EngineConfig;
import io.baton.engine.EngineIo;
import io.baton.engine.EngineMetrics;
import io.baton.engine.FlowRegistry;
import io.baton.engine.Orchestrator;
import io.baton.engine.SetAsideRuns;
import io.baton.engine.SignalPoller;
import io.baton.engine.StartupRecoveryFailedException;
import io.baton.event.EventDispatcher;
import io.baton.event.EventTriggers;
import io.baton.journal.ClaimReason;
import io.baton.lease.ConnectionState;
import io.baton.lease.LeaseManager;
import io.baton.lease.NodeInfo;
import io.baton.lease.NodeLoad;
import io.baton.recovery.FailureDetector;
import io.baton.recovery.OrphanClaimer;
import io.baton.recovery.RecoveryConfig;
import io.baton.recovery.StartupRecovery;
import io.baton.retention.JournalArchiver;
import io.baton.retention.RetentionSweeper;
import io.baton.retention.RunDiscarder;
import io.baton.store.Stores;
import io.baton.time.Futures;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Baton node: its engine, claimer and recovery around a lease manager and stores. Starting
 * grants the lease, re-adopts the node's own runs, then claims orphans; a graceful stop drains
 * running steps, journals what finished and releases every lease in one call, so other nodes adopt
 * the runs at once. A lost lease drops every run; when a fresh lease is granted the node re-adopts
 * what nobody claimed meanwhile. The whole shutdown order, each step bounded, is written down in
 * one place, {@code shutdownOrder()}: {@link #drain()} runs its hand-off steps, {@link #close()}
 * the rest. Thread-safe; lifecycle NEW → STARTED → STOPPED.
 */
public final class OrchestratorNode implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(OrchestratorNode.class);

  /** The bound of steps that flip a flag and return: they have nothing to wait for. */
  private static final Duration AT_ONCE = Duration.ZERO;

  /** How long past the drain timeout the drain step waits for the engine's loop to report it. */
  private static final Duration DRAIN_SLACK = Duration.ofSeconds(5);

  /** Announcing the node as draining and revoking its lease: a few lease-service round trips. */
  private static final Duration RELEASE_TIMEOUT = Duration.ofSeconds(10);

  /** The lease client, then the I/O threads (each group-committer lane may take up to 5 s). */
  private static final Duration IO_CLOSE_TIMEOUT = Duration.ofSeconds(15);

  /** The stores' connection pool. */
  private static final Duration STORES_CLOSE_TIMEOUT = Duration.ofSeconds(10);

  /** The scheduler's threads (a {@code SystemScheduler} waits up to 5 s for running tasks). */
  private static final Duration SCHEDULER_CLOSE_TIMEOUT = Duration.ofSeconds(10);

  /** What a caller blocked on the hand-off waits beyond its steps' bounds, should timers stall. */
  private static final Duration HAND_OFF_SLACK = Duration.ofSeconds(5);

  /** The node's lifecycle. */
  public enum Phase {
    NEW,
    STARTING,
    READY,
    /**
     * Its store could not be reached for {@code recovery.storeOutageHandoff}: it gave its runs away
     * and waits, not ready, for the store to answer again; then it is READY again.
     */
    STANDBY,
    DRAINING,
    STOPPED,
    /** Startup recovery failed: the lease is released and the node cannot start again. */
    FAILED
  }

  /** How often a node stood down because its store could not be reached. */
  public static final String STORE_OUTAGE_HANDOFFS = "baton.recovery.store_outage_handoffs";

  private final EngineConfig config;
  private final RecoveryConfig recovery;
  private final Scheduler scheduler;
  private final Stores stores;
  private final LeaseManager leases;
  private final EngineIo io;
  private final Engine engine;
  private final ClaimService claims;
  private final Orchestrator orchestrator;
  private final OrphanClaimer claimer;
  private final FailureDetector failureDetector;
  private final StoreOutageWatch storeOutageWatch;
  private final Rebalancer rebalancer;
  private final Counter stepsCompleted;
  private final Counter claimsMade;
  private final Counter fencedOut;
  private final PaceWindow pace;
  private final Duration coolDown;
  private final Counter storeOutageHandoffs;
  private final StartupRecovery startup;
  private final SignalPoller poller;
  private final EventTriggers eventTriggers;
  private final EventDispatcher eventDispatcher;
  private final JournalArchiver archiver;
  private final RetentionSweeper retention;
  private final RunDiscarder discarder;
  private final Supplier<String> address;
  private final String version;
  private final Instant createdAt;
  private final AutoCloseable ownedStores;
  private final AutoCloseable ownedScheduler;
  private final ShutdownOrder shutdown;
  private final List<Runnable> readinessListeners = new CopyOnWriteArrayList<>();
  private final Object handOffLock = new Object();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile HandOff handOff;
  private volatile NodeInfo info;
  private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.NEW);
  private volatile ConnectionState lastLeaseState = ConnectionState.CONNECTED;
  private volatile boolean listening;
  private volatile Throwable startFailure;

  OrchestratorNode(OrchestratorNodeBuilder builder) {
    this.config = builder.config;
    this.recovery = builder.recovery;
    this.scheduler = builder.scheduler;
    this.stores = builder.stores;
    this.leases = builder.leases;
    this.io = builder.io.open(scheduler, stores.journal(), leases);
    FlowRegistry flows =
        new FlowRegistry(builder.reader, stores.metadata(), stores.blobs(), scheduler.clock());
    this.engine =
        new Engine(
            config,
            scheduler,
            io,
            builder.capabilities,
            flows,
            stores.metadata(),
            new EngineMetrics(builder.metrics),
            builder.random);
    this.claims = new ClaimService(engine, flows, stores.journal(), stores.metadata());
    this.orchestrator =
        new Orchestrator(engine, claims, flows, stores.metadata(), stores.journal(), builder.ids);
    this.claimer =
        new OrphanClaimer(engine, io, claims, stores.metadata(), leases, scheduler, recovery);
    this.failureDetector =
        new FailureDetector(
            leases,
            builder.nodeProbe,
            scheduler,
            builder.probing == null ? scheduler : builder.probing,
            recovery.enabled() ? recovery.deathProbeInterval() : Duration.ZERO,
            builder.metrics.counter(FailureDetector.DEAD_NODES_REVOKED));
    this.storeOutageWatch =
        new StoreOutageWatch(
            nodeId(),
            recovery.enabled() ? recovery.storeOutageHandoff() : Duration.ZERO,
            scheduler,
            io,
            stores.metadata(),
            engine::appendsFailingFor,
            this::standDown,
            this::resumeAfterStandDown);
    this.storeOutageHandoffs = builder.metrics.counter(STORE_OUTAGE_HANDOFFS);
    this.stepsCompleted = builder.metrics.counter(EngineMetrics.STEPS_COMPLETED);
    this.claimsMade = builder.metrics.counter(EngineMetrics.CLAIMS);
    this.fencedOut = builder.metrics.counter(EngineMetrics.JOURNAL_FENCED_OUT);
    this.pace = new PaceWindow(builder.rebalance.interval().toNanos(), builder.rebalance.band());
    this.coolDown = builder.rebalance.coolDown();
    this.rebalancer =
        new Rebalancer(
            nodeId(),
            builder.rebalance,
            scheduler,
            io,
            leases,
            engine,
            claims,
            this::announceLoad,
            builder.metrics.counter(Rebalancer.ROUNDS),
            builder.metrics.counter(Rebalancer.MOVED_OUT),
            builder.metrics.counter(Rebalancer.MOVED_IN));
    this.startup =
        new StartupRecovery(
            engine, io, claims, stores.metadata(), stores.journal(), recovery, engine::emit);
    this.poller =
        new SignalPoller(engine, stores.metadata(), scheduler, config.signalPollInterval());
    this.eventTriggers =
        new EventTriggers(
            stores.events(),
            flows,
            stores.metadata(),
            orchestrator.commands(),
            io,
            scheduler,
            builder.metrics.counter(EventTriggers.DUPLICATES));
    this.eventDispatcher = new EventDispatcher(eventTriggers, io, scheduler, builder.events);
    this.archiver =
        new JournalArchiver(
            stores.journal(),
            io,
            scheduler,
            builder.random,
            builder.housekeeping,
            builder.metrics.counter(JournalArchiver.ARCHIVED),
            builder.metrics.counter(JournalArchiver.FAILURES));
    this.retention =
        new RetentionSweeper(
            stores.metadata(),
            tree -> retentionOf(flows, tree.flowHash(), builder.housekeeping.finishedRuns()),
            io,
            scheduler,
            builder.random,
            builder.housekeeping,
            builder.metrics.counter(RetentionSweeper.DELETED),
            builder.metrics.counter(RetentionSweeper.FAILURES));
    this.discarder =
        new RunDiscarder(stores.metadata(), io, builder.metrics.counter(RunDiscarder.DISCARDED));
    engine.onParked(
        (root, wakeAt) ->
            scheduler.scheduleAt(
                wakeAt,
                () -> {
                  if (phase.get() == Phase.READY) {
                    claims.claim(List.of(root), ClaimReason.WAKE);
                  }
                }));
    this.address = builder.address;
    this.version = builder.version;
    this.createdAt = scheduler.now();
    this.ownedStores = builder.ownsStoresAndScheduler ? stores : OrchestratorNode::notOwned;
    this.ownedScheduler =
        builder.ownsStoresAndScheduler && scheduler instanceof AutoCloseable closeable
            ? closeable
            : OrchestratorNode::notOwned;
    this.shutdown = shutdownOrder();
    for (ConnectionState state : ConnectionState.values()) {
      String name =
          EngineMetrics.labelled(
              EngineMetrics.LEASE_STATE, "state", state.name().toLowerCase(Locale.ROOT));
      builder.metrics.gauge(name, () -> () -> leases.state() == state ? 1 : 0);
    }
  }

  /** The flow's own retention, or the node's default when it says none or cannot be read. */
  private static Duration retentionOf(FlowRegistry flows, String flowHash, Duration fallback) {
    try {
      Duration own = flows.byHash(flowHash).definition().retention();
      return own == null ? fallback : own;
    } catch (RuntimeException unreadable) {
      log.debug(
          "flow {} unreadable, its runs are kept {}: {}",
          flowHash,
          fallback,
          unreadable.toString());
      return fallback;
    }
  }

  /** What the node closes in place of the stores or the scheduler that its caller owns. */
  private static void notOwned() {}

  /** A hand-off under way: its end, and when a caller blocked on it stops waiting. */
  private record HandOff(CompletableFuture<Void> ended, long deadlineNanos) {}

  public static OrchestratorNodeBuilder builder() {
    return new OrchestratorNodeBuilder();
  }

  public String nodeId() {
    return config.nodeId();
  }

  public Orchestrator orchestrator() {
    return orchestrator;
  }

  /** Deletes runs that are not live, at an operator's command. */
  public RunDiscarder discarder() {
    return discarder;
  }

  /** Runs one retention batch now (tests and benchmarks); completes with whether it was full. */
  public CompletableFuture<Boolean> retentionBatch() {
    return retention.batch();
  }

  /** Runs one archiver batch now (tests and benchmarks); completes with whether it was full. */
  public CompletableFuture<Boolean> archiveBatch() {
    return archiver.batch();
  }

  /** Where events are received and turned into runs. */
  public EventTriggers events() {
    return eventTriggers;
  }

  public Engine engine() {
    return engine;
  }

  public LeaseManager leases() {
    return leases;
  }

  public Stores stores() {
    return stores;
  }

  /** How this node claims run trees (every adoption goes through it). */
  public ClaimService claims() {
    return claims;
  }

  /** The run trees this node could not load and left aside for a later try. */
  public SetAsideRuns setAside() {
    return claims.setAside();
  }

  public Phase phase() {
    return phase.get();
  }

  /** Ready: started, holding a live lease, not draining. */
  public boolean isReady() {
    return phase.get() == Phase.READY && leases.state() == ConnectionState.CONNECTED;
  }

  /**
   * Grants the lease, re-adopts this node's runs and starts claiming; the future completes when the
   * node is ready. When the lease cannot be granted the node stays NEW and may be started again.
   * When startup recovery fails the node never holds a live lease while claiming nothing: it drops
   * what it adopted, releases its lease (other nodes adopt its runs at once) and turns FAILED; the
   * future fails with {@link StartupRecoveryFailedException}.
   */
  public CompletableFuture<Void> start() {
    if (!phase.compareAndSet(Phase.NEW, Phase.STARTING)) {
      throw new IllegalStateException("node " + nodeId() + " was started before");
    }
    log.info("node {} starting", nodeId());
    return io.call(
            "grant lease",
            () -> {
              info = new NodeInfo(config.nodeId(), address.get(), createdAt, version, false);
              leases.start(info);
              if (!listening) {
                listening = true;
                leases.onStateChange(this::leaseStateChanged);
              }
              return null;
            })
        .whenComplete(
            (granted, failure) -> {
              if (failure != null) {
                // the lease service is unreachable: the caller may start again later
                phase.compareAndSet(Phase.STARTING, Phase.NEW);
              }
            })
        .thenCompose(
            granted ->
                (recovery.enabled() ? startup.run() : CompletableFuture.completedFuture(null))
                    .handle((counts, failure) -> failure)
                    .thenCompose(failure -> failure == null ? ready() : failStart(failure)));
  }

  private CompletableFuture<Void> ready() {
    claimer.start();
    failureDetector.start();
    poller.start();
    eventDispatcher.start();
    archiver.start();
    retention.start();
    storeOutageWatch.start();
    phase.compareAndSet(Phase.STARTING, Phase.READY);
    rebalancer.start();
    log.info("node {} ready", nodeId());
    return CompletableFuture.completedFuture(null);
  }

  private CompletableFuture<Void> failStart(Throwable failure) {
    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
    startFailure = cause;
    phase.set(Phase.FAILED);
    log.error(
        "node {}: startup recovery failed; releasing the lease so that other nodes adopt its runs",
        nodeId(),
        cause);
    return engine
        .dropAll("startup recovery failed")
        .thenCompose(
            dropped ->
                io.call(
                    "release the lease",
                    () -> {
                      releaseAnnounced();
                      return null;
                    }))
        .handle(
            (released, ignored) -> {
              throw new CompletionException(new StartupRecoveryFailedException(nodeId(), cause));
            });
  }

  /**
   * Gray failure: the node holds its lease but cannot reach its store. It stops taking work, and
   * revokes its lease so that nodes that reach the store adopt its runs now (what it could not
   * journal is re-run by them under their recovery policy, never committed twice: its appends are
   * fenced out). It stays not ready until the store answers again.
   */
  private void standDown(String why) {
    if (!phase.compareAndSet(Phase.READY, Phase.STANDBY)) {
      return;
    }
    storeOutageHandoffs.inc();
    log.warn(
        "node {}: {}; standing down: its {} runs go to nodes that reach the store",
        nodeId(),
        why,
        engine.activeCount());
    claimer.stop();
    failureDetector.stop();
    poller.stop();
    eventDispatcher.stop();
    archiver.stop();
    retention.stop();
    rebalancer.stop();
    // On the scheduler, not the I/O threads: those may all be stuck on the store.
    scheduler.execute(
        () -> {
          try {
            leases.standDown();
          } catch (RuntimeException failure) {
            log.warn(
                "node {}: could not revoke its lease ({}); it expires after its TTL",
                nodeId(),
                failure.toString());
          }
        });
  }

  /** The store answers again: a fresh lease, this node's runs re-adopted, claiming again. */
  private boolean resumeAfterStandDown() {
    if (!phase.compareAndSet(Phase.STANDBY, Phase.READY)) {
      return phase.get() != Phase.STANDBY;
    }
    try {
      leases.resume();
    } catch (RuntimeException unreachable) {
      phase.compareAndSet(Phase.READY, Phase.STANDBY);
      log.info("node {}: could not take a fresh lease yet: {}", nodeId(), unreachable.toString());
      return false;
    }
    claimer.start();
    failureDetector.start();
    poller.start();
    eventDispatcher.start();
    archiver.start();
    retention.start();
    rebalancer.start();
    return true;
  }

  /**
   * Announces this node's load with its node info: its active runs, its steps per second ({@link
   * PaceWindow}), whether it takes runs from others (only while READY), how many of its runs are
   * cooling down after a move, and where its rebalancing round's runs are going.
   */
  private CompletableFuture<Void> announceLoad() {
    return io.call(
        "announce load",
        () -> {
          NodeInfo current = info;
          if (current == null) {
            return null;
          }
          int active = engine.activeCount();
          NodeInfo loaded =
              current.withLoad(
                  new NodeLoad(
                      active,
                      pace.update(scheduler.nanoTime(), stepsCompleted.getCount(), active),
                      phase.get() == Phase.READY,
                      claimsMade.getCount(),
                      fencedOut.getCount(),
                      engine.coolingDown(coolDown),
                      rebalancer.outgoing()));
          info = loaded;
          leases.announce(loaded);
          return null;
        });
  }

  /** The rebalancing moves the cluster's announced loads call for now (all nodes'). */
  public CompletableFuture<List<RebalancePlan.Move>> rebalancePlan() {
    return rebalancer.plan();
  }

  /** Runs a rebalancing round now: announces, plans, carries out this node's moves. */
  public CompletableFuture<List<RebalancePlan.Move>> rebalanceNow() {
    return rebalancer.round();
  }

  /** Why startup recovery failed, once the node is {@link Phase#FAILED}. */
  public Optional<Throwable> startFailure() {
    return Optional.ofNullable(startFailure);
  }

  private void leaseStateChanged(ConnectionState state) {
    ConnectionState previous = lastLeaseState;
    lastLeaseState = state;
    switch (state) {
      case SUSPENDED -> engine.setSuspended(true);
      case LOST ->
          engine.leaseEnded(
              switch (phase.get()) {
                case DRAINING -> "its lease was released at shutdown";
                case STANDBY -> "the node stood down: its store cannot be reached";
                default -> "the node's lease was lost";
              });
      case CONNECTED -> {
        engine.setSuspended(false);
        if (previous == ConnectionState.LOST && phase.get() == Phase.READY && recovery.enabled()) {
          log.info("node {} has a fresh lease; re-adopting its runs", nodeId());
          // what this misses, the safety-net pass claims: runs recorded as this node's that it
          // does not execute
          Futures.whenComplete(
              startup.run(),
              (counts, failure) -> {
                if (failure != null) {
                  log.warn(
                      "node {}: re-adopting its runs failed: {}", nodeId(), failure.toString());
                }
              });
        }
      }
    }
  }

  /**
   * The whole shutdown order, first step first, each with its bound and the reason for its place
   * (db-scheduler's {@code Scheduler.stop()} is the model). {@link #drain()} runs the hand-off
   * steps on the node's scheduler; {@link #close()} waits for them, or runs them when no drain has,
   * then runs the closing steps. A step that fails or outlives its bound is logged and the next one
   * runs anyway.
   */
  private ShutdownOrder shutdownOrder() {
    return new ShutdownOrder(
        nodeId(),
        List.of(
            // readiness first: load balancers and peers stop sending work before anything stops
            new HandOffStep("readiness off", AT_ONCE, this::readinessOff),
            // the claimer before the drain: no run may arrive while the running ones finish
            new HandOffStep("claimer", AT_ONCE, this::stopClaiming),
            // drain while the lease still proves ownership: what finishes is journaled, not fenced
            new HandOffStep("drain", config.drainTimeout().plus(DRAIN_SLACK), this::awaitDrained),
            // release after the journal is written, in one call: the others adopt every run at once
            new HandOffStep("release all", RELEASE_TIMEOUT, this::releaseAll)),
        List.of(
            // the I/O after the release, which runs on it
            new ClosingStep("I/O", IO_CLOSE_TIMEOUT, this::closeIo),
            // the stores after the I/O, whose threads write to them until they stop
            new ClosingStep("stores", STORES_CLOSE_TIMEOUT, ownedStores),
            // the scheduler last: the engine's loop, the lease keep-alive and every timer above
            // run on it (db-scheduler stops its heartbeats last for the same reason)
            new ClosingStep("scheduler", SCHEDULER_CLOSE_TIMEOUT, ownedScheduler)));
  }

  /**
   * The graceful stop, the hand-off steps of the shutdown order: readiness goes false, claiming
   * stops, running steps get up to {@code drainTimeout} to finish and be journaled, then every
   * lease is released in one call. Calling it again while the hand-off runs returns the same
   * future; a node that is not started, was halted or failed to start has nothing to hand off. The
   * future never completes exceptionally.
   */
  public CompletableFuture<Void> drain() {
    synchronized (handOffLock) {
      if (!phase.compareAndSet(Phase.READY, Phase.DRAINING)
          && !phase.compareAndSet(Phase.STANDBY, Phase.DRAINING)
          && !phase.compareAndSet(Phase.STARTING, Phase.DRAINING)) {
        HandOff running = handOff;
        return running != null ? running.ended() : CompletableFuture.completedFuture(null);
      }
      long deadline = scheduler.nanoTime() + shutdown.handOffBound().plus(HAND_OFF_SLACK).toNanos();
      CompletableFuture<Void> ended =
          shutdown
              .runHandOff(scheduler)
              .whenComplete(
                  (done, failure) -> {
                    phase.set(Phase.STOPPED);
                    log.info("node {} stopped", nodeId());
                  });
      handOff = new HandOff(ended, deadline);
      return ended;
    }
  }

  /**
   * {@link #drain()}, waited for on the calling thread. The scheduler's timers bound each step;
   * this wait holds even when they stall, ending a few seconds past the sum of the steps' bounds.
   *
   * @return whether the hand-off ended (or there was none) before the wait ran out
   */
  public boolean drainAndWait() {
    CompletableFuture<Void> ended = drain();
    HandOff running = handOff;
    long waitNanos = running == null ? 0 : running.deadlineNanos() - scheduler.nanoTime();
    try {
      ended.get(Math.max(0, waitNanos), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException late) {
      log.warn("node {}: the hand-off did not end in time; closing anyway", nodeId());
    } catch (ExecutionException failure) {
      log.warn("node {}: the hand-off failed; closing anyway", nodeId(), failure.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      log.warn("node {}: interrupted while waiting for the hand-off", nodeId());
    }
    return false;
  }

  /**
   * Runs {@code listener} in the first step of the shutdown order, as readiness goes off (the HTTP
   * API's readiness, say). It runs on the thread that begins the drain and must return at once.
   */
  public void onReadinessOff(Runnable listener) {
    readinessListeners.add(listener);
  }

  // The phase turned DRAINING when the hand-off began, so isReady() is false already.
  private CompletableFuture<Void> readinessOff() {
    readinessListeners.forEach(Runnable::run);
    log.info(
        "node {} draining ({} runs, up to {})",
        nodeId(),
        engine.activeCount(),
        config.drainTimeout());
    return CompletableFuture.completedFuture(null);
  }

  private CompletableFuture<Void> stopClaiming() {
    rebalancer.stop();
    storeOutageWatch.stop();
    claimer.stop();
    failureDetector.stop();
    poller.stop();
    eventDispatcher.stop();
    archiver.stop();
    retention.stop();
    engine.startDraining();
    return CompletableFuture.completedFuture(null);
  }

  private CompletableFuture<Void> awaitDrained() {
    return engine
        .awaitQuiet(config.drainTimeout())
        .thenAccept(
            quiet -> {
              if (!quiet) {
                log.warn(
                    "node {}: drain timed out; releasing runs with steps still running", nodeId());
              }
            });
  }

  private CompletableFuture<Void> releaseAll() {
    return io.call(
            "release all leases",
            () -> {
              releaseAnnounced();
              return null;
            })
        .thenCompose(released -> engine.dropAll("released at shutdown"));
  }

  private void closeIo() {
    try {
      leases.close();
    } finally {
      io.close();
    }
  }

  /**
   * Announces the node as draining and revokes its lease. A lease already lost, or a lease service
   * that cannot be reached, ends the same way, only later: the lease expires after its TTL.
   */
  private void releaseAnnounced() {
    try {
      if (info != null) {
        leases.announce(info.asDraining());
      }
      leases.releaseAll();
    } catch (RuntimeException unreachable) {
      log.warn(
          "node {}: could not release its lease ({}); it expires after its TTL",
          nodeId(),
          unreachable.toString());
    }
  }

  /** Stops without draining or releasing, as if the process died (the lease expires later). */
  public CompletableFuture<Void> halt() {
    phase.set(Phase.STOPPED);
    rebalancer.stop();
    storeOutageWatch.stop();
    claimer.stop();
    failureDetector.stop();
    poller.stop();
    eventDispatcher.stop();
    archiver.stop();
    retention.stop();
    engine.startDraining();
    leases.close();
    return engine.dropAll("halted");
  }

  /** Runs one safety-net claim pass now (tests and operators). */
  public CompletableFuture<Void> claimPass() {
    return claimer.pass();
  }

  /**
   * Runs the rest of the shutdown order: the hand-off (waited for, or run when no drain has), then
   * the closing steps: the I/O, and the stores and the scheduler when the node owns them.
   * Idempotent: a second call returns at once.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    drainAndWait();
    shutdown.runClosing();
  }

  Duration drainTimeout() {
    return config.drainTimeout();
  }
}

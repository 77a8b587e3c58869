package io.baton.cluster;

import com.codahale.metrics.Counter;
import io.baton.engine.ClaimService;
import io.baton.engine.Engine;
import io.baton.engine.EngineIo;
import io.baton.journal.ClaimReason;
import io.baton.lease.LeaseManager;
import io.baton.lease.LiveNodes;
import io.baton.lease.NodeInfo;
import io.baton.time.Futures;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Evens out the active runs across the cluster when it grows. Every {@code interval} a round
 * announces this node's load, reads everyone's, plans ({@link RebalancePlan}) and carries out this
 * node's own moves: the engine lets that many runs go, each at its next step boundary ({@link
 * Engine#letGo}), and the lease service offers them to their receivers ({@link
 * LeaseManager#offer}). Every {@code offerPollInterval} the node claims the runs offered to it
 * ({@link ClaimReason#REBALANCE}), as far as it has room, and withdraws those offers. A run offered
 * and never claimed (its receiver died) goes back: its giver's safety-net pass takes it again once
 * the grace for let-go runs has passed, and offers vanish with their giver's lease.
 *
 * <p>While its round's runs leave, the node announces where those not yet gone are going ({@link
 * #outgoing()}, at the round's start and at most every 250 ms), so that a node whose round begins
 * meanwhile plans them at their receivers and does not fill those receivers a second time.
 *
 * <p>Bounds: a node's rounds never overlap; no move while every node is within the band of its
 * share; at most {@code maxMovesPerRound} and {@code maxShare} of a node's runs per round; a run
 * adopted less than {@code coolDown} ago is not moved; parked runs are not active and never move.
 * Thread-safe; start once, {@link #stop()} is idempotent.
 */
public final class Rebalancer {
  public static final String ROUNDS = "baton.rebalance.rounds";
  public static final String MOVED_OUT = "baton.rebalance.moved_out";
  public static final String MOVED_IN = "baton.rebalance.moved_in";

  private static final Logger log = LoggerFactory.getLogger(Rebalancer.class);

  /** How long a run that left waits for others to be offered with it. */
  private static final Duration OFFER_DELAY = Duration.ofMillis(20);

  /** How often at most a giver announces its load again while its round's runs leave. */
  private static final Duration PROGRESS_ANNOUNCE_EVERY = Duration.ofMillis(250);

  private final String nodeId;
  private final RebalanceConfig config;
  private final Scheduler scheduler;
  private final EngineIo io;
  private final LeaseManager leases;
  private final Engine engine;
  private final ClaimService claims;
  private final Supplier<CompletableFuture<Void>> announceLoad;
  private final Counter rounds;
  private final Counter movedOut;
  private final Counter movedIn;
  private volatile boolean running;
  private volatile CompletableFuture<List<RebalancePlan.Move>> roundInProgress;
  private volatile Offering offering;
  private volatile long progressAnnouncedNanos;

  Rebalancer(
      String nodeId,
      RebalanceConfig config,
      Scheduler scheduler,
      EngineIo io,
      LeaseManager leases,
      Engine engine,
      ClaimService claims,
      Supplier<CompletableFuture<Void>> announceLoad,
      Counter rounds,
      Counter movedOut,
      Counter movedIn) {
    this.nodeId = nodeId;
    this.config = config;
    this.scheduler = scheduler;
    this.io = io;
    this.leases = leases;
    this.engine = engine;
    this.claims = claims;
    this.announceLoad = announceLoad;
    this.rounds = rounds;
    this.movedOut = movedOut;
    this.movedIn = movedIn;
  }

  synchronized void start() {
    if (running || !config.enabled()) {
      return;
    }
    running = true;
    // announce at once: a node that joins is counted as a receiver by the others' next rounds
    Futures.whenComplete(
        announceLoad.get(),
        (announced, failure) -> {
          if (failure != null) {
            log.debug("node {}: announcing its load failed: {}", nodeId, failure.toString());
          }
        });
    scheduler.schedule(config.interval(), this::scheduledRound);
    scheduler.schedule(config.offerPollInterval(), this::pollOffers);
  }

  synchronized void stop() {
    running = false;
  }

  /**
   * Runs this node's round still means to give, by receiver: planned and not yet left. Announced
   * with the load, so that a node planning while this round goes on counts them where they are
   * going ({@link RebalancePlan}); empty between rounds.
   */
  public Map<String, Integer> outgoing() {
    Offering current = offering;
    return current == null ? Map.of() : current.remaining();
  }

  /** The moves the cluster's announced loads call for now (every node's, not only this one's). */
  public CompletableFuture<List<RebalancePlan.Move>> plan() {
    return io.call("rebalance: read loads", () -> RebalancePlan.plan(live().nodes(), config));
  }

  /** The loads a round read and the moves they call for. */
  private record Planned(List<NodeInfo> seen, List<RebalancePlan.Move> moves) {}

  private CompletableFuture<Planned> planRound() {
    return io.call(
        "rebalance: read loads",
        () -> {
          List<NodeInfo> seen = live().nodes();
          return new Planned(seen, RebalancePlan.plan(seen, config));
        });
  }

  /**
   * Runs a round now (unless one runs already, whose moves it then returns): announces this node's
   * load, plans, and carries out this node's moves. Completes with the whole plan.
   */
  public synchronized CompletableFuture<List<RebalancePlan.Move>> round() {
    CompletableFuture<List<RebalancePlan.Move>> current = roundInProgress;
    if (current != null && !current.isDone()) {
      return current;
    }
    CompletableFuture<List<RebalancePlan.Move>> started =
        announceLoad
            .get()
            .thenCompose(announced -> planRound())
            .thenCompose(planned -> carryOut(planned).thenApply(done -> planned.moves()));
    roundInProgress = started;
    return started;
  }

  private void scheduledRound() {
    if (!running) {
      return;
    }
    Futures.whenComplete(
        round(),
        (moves, failure) -> {
          if (failure != null) {
            log.warn("node {}: rebalancing round failed: {}", nodeId, failure.toString());
          }
          if (running) {
            scheduler.schedule(config.interval(), this::scheduledRound);
          }
        });
  }

  private CompletableFuture<Void> carryOut(Planned planned) {
    List<RebalancePlan.Move> mine =
        planned.moves().stream().filter(m -> m.from().equals(nodeId)).toList();
    if (mine.isEmpty() || !running) {
      return CompletableFuture.completedFuture(null);
    }
    rounds.inc();
    int total = mine.stream().mapToInt(RebalancePlan.Move::count).sum();
    log.info(
        "node {}: rebalancing round {}: giving {} runs {} from loads {}",
        nodeId,
        rounds.getCount(),
        total,
        mine,
        loads(planned.seen()));
    Offering round = new Offering(mine);
    offering = round;
    // the others see at once where this round's runs are going, before any has left
    return announceLoad
        .get()
        .thenCompose(
            announced ->
                engine
                    // each run is offered as it leaves; a chosen run whose step outlasts the
                    // round's interval stays here and goes on
                    .letGo(total, config.coolDown(), config.interval(), round::left))
        .thenCompose(
            left -> {
              log.info("node {}: {} of {} runs left this round", nodeId, left.size(), total);
              return round.flush();
            })
        .whenComplete((done, failure) -> offering = null)
        // the others plan from announced loads: a stale one after a move makes them move too much
        .thenCompose(offered -> announceLoad.get());
  }

  /**
   * The runs of one round on their way out: each is given to the next receiver in plan order as it
   * leaves (at its own step boundary) and offered within {@link #OFFER_DELAY}, together with those
   * that left meanwhile, so that a moved run pauses for about one offer and one poll of its
   * receiver, not for the whole round. Thread-safe.
   */
  private final class Offering {
    private final List<RebalancePlan.Move> moves;
    private final Map<String, List<UUID>> pending = new LinkedHashMap<>();
    private int move;
    private int assigned;
    private boolean flushScheduled;
    private CompletableFuture<Void> flushing = CompletableFuture.completedFuture(null);

    Offering(List<RebalancePlan.Move> moves) {
      this.moves = moves;
    }

    /** On the engine's loop, as a run leaves: never blocks. */
    synchronized void left(UUID root) {
      while (move < moves.size() && assigned >= moves.get(move).count()) {
        move++;
        assigned = 0;
      }
      if (move >= moves.size()) {
        return; // more left than planned: its giver takes it back after the grace
      }
      assigned++;
      pending.computeIfAbsent(moves.get(move).to(), to -> new ArrayList<>()).add(root);
      if (!flushScheduled) {
        flushScheduled = true;
        scheduler.schedule(
            OFFER_DELAY,
            () ->
                Futures.whenComplete(
                    flush(),
                    (done, failure) -> {
                      if (failure != null) {
                        log.warn("node {}: offering runs failed: {}", nodeId, failure.toString());
                      }
                    }));
      }
    }

    /** Offers what has left and is not offered yet; completes once it and earlier offers are. */
    synchronized CompletableFuture<Void> flush() {
      flushScheduled = false;
      if (pending.isEmpty()) {
        return flushing;
      }
      Map<String, List<UUID>> batch = new LinkedHashMap<>(pending);
      pending.clear();
      flushing =
          flushing
              .handle((done, failure) -> null)
              .thenCompose(
                  previous ->
                      io.call(
                          "rebalance: offer",
                          () -> {
                            batch.forEach(Rebalancer.this::offer);
                            return null;
                          }));
      Futures.whenComplete(flushing, (done, failure) -> announceProgress());
      return flushing;
    }

    /** Runs planned and not yet left, by receiver. */
    synchronized Map<String, Integer> remaining() {
      Map<String, Integer> remaining = new LinkedHashMap<>();
      for (int i = move; i < moves.size(); i++) {
        int left = moves.get(i).count() - (i == move ? assigned : 0);
        if (left > 0) {
          remaining.merge(moves.get(i).to(), left, Integer::sum);
        }
      }
      return remaining;
    }
  }

  /**
   * Announces the load again while a round's runs leave, at most every {@link
   * #PROGRESS_ANNOUNCE_EVERY}: a node planning meanwhile sees this one's runs and its outgoing ones
   * where they are, not where they were when the round began.
   */
  private void announceProgress() {
    long now = scheduler.nanoTime();
    if (now - progressAnnouncedNanos < PROGRESS_ANNOUNCE_EVERY.toNanos()) {
      return;
    }
    progressAnnouncedNanos = now;
    Futures.whenComplete(
        announceLoad.get(),
        (announced, failure) -> {
          if (failure != null) {
            log.debug("node {}: announcing its load failed: {}", nodeId, failure.toString());
          }
        });
  }

  /** Each node's announced load, for the round's log line: {@code id=runs/cooling@steps/s}. */
  private static String loads(List<NodeInfo> nodes) {
    StringBuilder text = new StringBuilder();
    for (NodeInfo node : nodes) {
      text.append(text.length() == 0 ? "" : " ")
          .append(node.nodeId())
          .append('=')
          .append(node.load().activeRuns())
          .append('/')
          .append(node.load().coolingDown())
          .append('@')
          .append(Math.round(node.load().stepsPerSecond()))
          .append(node.load().accepting() && !node.draining() ? "" : "(not taking)");
    }
    return text.toString();
  }

  /** Offers runs that left to their receiver. */
  private void offer(String to, List<UUID> runs) {
    leases.offer(runs, to);
    movedOut.inc(runs.size());
    log.debug("node {}: offered {} runs to {} (rebalancing)", nodeId, runs.size(), to);
  }

  private void pollOffers() {
    if (!running) {
      return;
    }
    Futures.whenComplete(
        io.call("rebalance: read offers", () -> leases.offersTo(nodeId))
            .thenCompose(this::claimOffers),
        (claimed, failure) -> {
          if (failure != null) {
            log.debug("node {}: reading offers failed: {}", nodeId, failure.toString());
          }
          if (running) {
            scheduler.schedule(config.offerPollInterval(), this::pollOffers);
          }
        });
  }

  private CompletableFuture<Void> claimOffers(Map<UUID, String> offers) {
    int room = engine.freeCapacity();
    if (offers.isEmpty() || room <= 0) {
      return CompletableFuture.completedFuture(null);
    }
    Map<UUID, String> taken = new LinkedHashMap<>();
    offers.entrySet().stream().limit(room).forEach(e -> taken.put(e.getKey(), e.getValue()));
    engine.movedIn(taken.keySet());
    return claims
        .claimLost(taken, ClaimReason.REBALANCE)
        .thenCompose(
            outcomes ->
                io.call(
                    "rebalance: withdraw offers",
                    () -> {
                      leases.withdrawOffers(taken.keySet(), nodeId);
                      movedIn.inc(taken.size());
                      return null;
                    }))
        .thenCompose(done -> announceLoad.get());
  }

  private LiveNodes live() {
    return leases.liveNodes();
  }
}

package io.baton.sim;

import com.codahale.metrics.MetricRegistry;
import io.baton.capability.CapabilityRegistry;
import io.baton.cluster.OrchestratorNode;
import io.baton.cluster.RebalanceConfig;
import io.baton.engine.EngineConfig;
import io.baton.engine.EngineMetrics;
import io.baton.engine.FlowRegistry;
import io.baton.engine.RunLimits;
import io.baton.engine.testing.TestCapabilities;
import io.baton.engine.testing.TestFlows;
import io.baton.flow.Flow;
import io.baton.flow.RecoveryPolicy;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import io.baton.journal.replay.Replay;
import io.baton.journal.replay.TreeState;
import io.baton.lease.NodeIdInUseException;
import io.baton.lease.NodeInfo;
import io.baton.lease.memory.InMemoryLeaseManager;
import io.baton.lease.memory.InMemoryLeaseService;
import io.baton.recovery.FailureDetector;
import io.baton.recovery.NodeProbe;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.RunRecord;
import io.baton.store.SignalType;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import io.baton.testkit.ManualScheduler;
import io.baton.testkit.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * A whole cluster in one thread on simulated time: 3 to 7 nodes sharing in-memory stores and an
 * in-memory lease service, a seeded workload (sequences, DAGs, retries, timers, approvals,
 * subflows, cancellations) and a seeded fault schedule (crashes and restarts with the same id,
 * pauses past the lease TTL that leave zombies, graceful drains, partitions from the lease service,
 * store outages with ambiguous commits, random call failures, lost watch events). Everything —
 * timing, ids, faults — follows from the seed, so a failing seed replays exactly.
 */
final class ClusterSimulation {
  static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration FAULT_WINDOW = Duration.ofSeconds(150);
  private static final Duration TIME_LIMIT = Duration.ofHours(2);
  private static final Duration COMPACT_EVERY = Duration.ofSeconds(7);

  record Stats(
      int nodes,
      int runs,
      int faults,
      long fencedOut,
      long claims,
      long deadNodesRevoked,
      long storeOutageHandoffs,
      long compactions,
      Duration simulated) {}

  record Result(long seed, List<String> violations, Stats stats) {
    boolean passed() {
      return violations.isEmpty();
    }
  }

  private enum Fault {
    CRASH,
    PAUSE,
    DRAIN,
    PARTITION,
    STORE_DOWN,
    WATCH_LOST,
    CALL_FAILURES,
    /** The node's lease ends at the service while the node runs on; it finds out when it renews. */
    REGRANT,
    /** The node's tasks lag by up to seconds (CPU starved): it reacts late to what it is told. */
    SLOW_NODE,
    /** For a while, the node often loses its lease right after a claim or submit took a token. */
    LEASE_LOST_MIDWAY,
    /**
     * Runs the node executes become undecodable for every node; a thousand stale signals pile up
     * for them; the node dies.
     */
    POISON
  }

  private final class SimNode {
    final String id;
    SimScheduler view;
    SimLeaseManager leases;
    OrchestratorNode node;
    MetricRegistry metrics = new MetricRegistry();
    boolean down;

    /** Draining: down for clients, but its process runs until the drain ends. */
    boolean draining;

    SimNode(String id) {
      this.id = id;
    }

    boolean usable() {
      return !down && !view.isPaused() && node.isReady();
    }
  }

  private static final class Submission {
    final int index;
    final String flow;
    final String key;
    UUID runId;
    int attempts;

    Submission(int index, String flow, String key) {
      this.index = index;
      this.flow = flow;
      this.key = key;
    }
  }

  private final long seed;
  private final Random random;
  private final RunLimits limits;
  private final ManualScheduler global = new ManualScheduler();
  private final SimFaults faults;
  private final InMemoryLeaseService leaseService = new InMemoryLeaseService(global);
  private final Stores base = InMemoryStores.create();
  private final AuditingJournal audit;

  /** What the nodes read: the journal with the compactions the simulation made. */
  private final CompactingJournal hot;

  private final List<String> compactionViolations = new ArrayList<>();
  private final Random compactions;
  private int compacted;
  private final SignalAudit signalAudit;
  private final Set<String> grants = new HashSet<>();
  private final LeaseLedger ledger = new LeaseLedger();
  private final Set<String> failFlows = new HashSet<>();
  private final SimOracle oracle;
  private final TestCapabilities capabilities = new TestCapabilities();
  private final CapabilityRegistry registry = capabilities.registry(global);
  private final List<SimNode> nodes = new ArrayList<>();
  private final List<Submission> submissions = new ArrayList<>();
  private final SimPeople people;
  private final SimEvents events;
  private int faultCount;
  private long fencedOutOfRetired;
  private long claimsOfRetired;
  private long revokedOfRetired;
  private long standDownsOfRetired;

  ClusterSimulation(long seed, boolean brokenFence) {
    this.seed = seed;
    this.random = new Random(seed);
    Random limitsRandom = new Random(seed * 13 + 5);
    this.limits = new RunLimits(2 + limitsRandom.nextInt(5), 6 + limitsRandom.nextInt(20));
    this.faults = new SimFaults(new Random(seed * 31 + 7), global::now);
    this.audit =
        new AuditingJournal(brokenFence ? new BrokenFenceJournal(base.journal()) : base.journal());
    this.signalAudit = new SignalAudit(base.journal());
    this.oracle =
        new SimOracle(
            base, leaseService, ledger, failFlows, global::now, audit::appendedWithAClaim);
    audit.onClaim(oracle::claimed);
    this.hot = new CompactingJournal(audit);
    this.compactions = new Random(seed * 13 + 5);
    this.people =
        new SimPeople(
            global,
            new Random(seed * 17 + 3),
            base,
            () -> submissions.stream().map(s -> s.runId).filter(Objects::nonNull).toList(),
            () -> Optional.ofNullable(anyUsable()).map(sim -> sim.node.orchestrator()));
    this.events =
        new SimEvents(
            global,
            new Random(seed * 13 + 5),
            base,
            () -> Optional.ofNullable(anyUsable()).map(sim -> sim.node).orElse(null));
  }

  static Result run(long seed, boolean brokenFence) {
    return new ClusterSimulation(seed, brokenFence).run();
  }

  private Result run() {
    int nodeCount = 3 + random.nextInt(5);
    for (int i = 0; i < nodeCount; i++) {
      SimNode node = new SimNode("node-" + i);
      nodes.add(node);
      start(node);
    }
    registerFlows();
    scheduleFaults();
    global.schedule(FAULT_WINDOW, this::heal);
    global.schedule(COMPACT_EVERY, this::compactSome);
    people.startOperator(this::finished);
    List<String> violations = new ArrayList<>();
    try {
      global.runUntil(this::finished, TIME_LIMIT);
    } catch (AssertionError timeout) {
      violations.add("not finished within " + TIME_LIMIT + " of simulated time: " + stuck());
    }
    violations.addAll(audit.violations);
    violations.addAll(signalAudit.violations);
    List<String> keys = new ArrayList<>(submissionKeys());
    keys.addAll(events.keys());
    violations.addAll(SimInvariants.check(base, grants, keys, acknowledged(), limits));
    violations.addAll(events.check());
    violations.addAll(oracle.check(roots()));
    roots().forEach(this::checkClaimView);
    violations.addAll(compactionViolations);
    return new Result(seed, violations, stats());
  }

  // --- nodes ---------------------------------------------------------------------------------

  private void start(SimNode sim) {
    sim.view = new SimScheduler(global, new Random(random.nextLong()), 5);
    sim.down = false;
    Stores stores =
        new Stores(
            new FaultyJournal(sim.id, hot, faults),
            new FaultyMetadata(sim.id, base.metadata(), faults, signalAudit),
            base.blobs(),
            base.events(),
            null);
    InMemoryLeaseManager lease = new InMemoryLeaseManager(sim.id, TTL, leaseService, sim.view);
    SimLeaseManager leases =
        new SimLeaseManager(
            lease,
            faults,
            grants,
            ledger,
            () -> {
              leaseService.expire(sim.id);
              lease.heartbeat();
            },
            sim.view);
    sim.leases = leases;
    leases.onRevokedDeadNode(target -> oracle.revoked(sim.id, target, processAlive(target)));
    Random nodeRandom = new Random(random.nextLong());
    sim.node =
        OrchestratorNode.builder()
            .config(
                EngineConfig.defaults(sim.id)
                    .withLimits(limits)
                    .withMaxConcurrentRuns(5 + random.nextInt(20))
                    .withDrainTimeout(Duration.ofSeconds(5))
                    .withCheckpoints(
                        2 + compactions.nextInt(8), 1_024 + compactions.nextInt(16_384)))
            .recovery(
                RecoveryConfig.defaults()
                    .withCheckInterval(Duration.ofSeconds(5))
                    .withDeathProbeInterval(Duration.ofSeconds(1))
                    // below the longest store outage the faults inject, so nodes stand down
                    .withStoreOutageHandoff(Duration.ofSeconds(10)))
            .address(sim.id)
            .nodeProbe(this::probe)
            .rebalance(
                RebalanceConfig.defaults()
                    .withInterval(Duration.ofSeconds(15))
                    .withCoolDown(Duration.ofSeconds(30))
                    .withOfferPollInterval(Duration.ofMillis(500)))
            .scheduler(sim.view)
            .stores(stores)
            .leases(leases)
            .capabilities(
                ObservedCapabilities.of(
                    registry,
                    invocation ->
                        oracle.invoked(sim.id, new SimOracle.NodeView(leases.state()), invocation)))
            .flowReader(TestFlows.READER)
            .metrics(sim.metrics)
            .random(nodeRandom)
            .ids(() -> new UUID(nodeRandom.nextLong(), nodeRandom.nextLong()))
            .io(
                (scheduler, journal, nodeLeases) ->
                    new SimIo(scheduler, journal, nodeLeases, new Random(nodeRandom.nextLong())))
            .build();
    OrchestratorNode node = sim.node;
    node.engine()
        .addListener(
            people.approverFor(node.orchestrator(), () -> sim.node == node && sim.usable()));
    launch(sim, sim.node);
  }

  /**
   * Starts the node. A crashed node restarts with its id while its old lease may still live; the
   * lease service refuses the id until that lease expires, so a refused start is retried every
   * second, as a supervisor would restart the process.
   */
  private void launch(SimNode sim, OrchestratorNode node) {
    node.start()
        .whenComplete(
            (ready, failure) -> {
              if (failure != null && idInUse(failure)) {
                global.schedule(
                    Duration.ofSeconds(1),
                    () -> {
                      if (sim.node == node && !sim.down) {
                        launch(sim, node);
                      }
                    });
              }
            });
  }

  /**
   * What probing a node's address finds: a crashed or exited process refuses connections (gone); a
   * paused one has its socket but answers nothing, which is no evidence (unknown).
   */
  private NodeProbe.Verdict probe(NodeInfo info) {
    SimNode target = byId(info.nodeId());
    if (target == null || target.view == null) {
      return NodeProbe.Verdict.UNKNOWN;
    }
    if (!processAlive(info.nodeId())) {
      return NodeProbe.Verdict.GONE;
    }
    return target.view.isPaused() ? NodeProbe.Verdict.UNKNOWN : NodeProbe.Verdict.PRESENT;
  }

  /** Whether a process of the node runs (it may be paused, slow or draining). */
  private boolean processAlive(String nodeId) {
    SimNode target = byId(nodeId);
    return target != null && (!target.down || target.draining);
  }

  private SimNode byId(String nodeId) {
    return nodes.stream().filter(n -> n.id.equals(nodeId)).findFirst().orElse(null);
  }

  private static boolean idInUse(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof NodeIdInUseException) {
        return true;
      }
    }
    return false;
  }

  private void crash(SimNode sim) {
    sim.down = true;
    sim.view.crash();
    sim.node.leases().close();
  }

  /** Starts a down node again; one still draining is restarted once its process has exited. */
  private void restart(SimNode sim) {
    if (sim.draining) {
      global.schedule(Duration.ofSeconds(1), () -> restart(sim));
    } else if (sim.down) {
      countRetired(sim);
      start(sim);
    }
  }

  private void countRetired(SimNode sim) {
    fencedOutOfRetired += sim.metrics.counter(EngineMetrics.JOURNAL_FENCED_OUT).getCount();
    claimsOfRetired += sim.metrics.counter(EngineMetrics.CLAIMS).getCount();
    revokedOfRetired += sim.metrics.counter(FailureDetector.DEAD_NODES_REVOKED).getCount();
    standDownsOfRetired += sim.metrics.counter(OrchestratorNode.STORE_OUTAGE_HANDOFFS).getCount();
    sim.metrics = new MetricRegistry();
  }

  private SimNode anyUsable() {
    List<SimNode> usable = nodes.stream().filter(SimNode::usable).toList();
    return usable.isEmpty() ? null : usable.get(random.nextInt(usable.size()));
  }

  // --- workload ------------------------------------------------------------------------------

  /**
   * Compacts the hot journal of some runs up to their checkpoints, as a store's archiver would, and
   * checks at once that a claim now (the checkpoint and the entries after it) sees the state that a
   * replay of the whole history gives.
   */
  private void compactSome() {
    if (finished()) {
      return;
    }
    for (UUID root : roots()) {
      if (compactions.nextInt(3) == 0 && hot.compact(root) > 0) {
        compacted++;
        checkClaimView(root);
      }
    }
    global.schedule(COMPACT_EVERY, this::compactSome);
  }

  /** Invariant: a claim after compaction sees the same state as a full replay. */
  private void checkClaimView(UUID root) {
    List<JournalEntry> history = base.journal().readHistory(root, 1, 1_000_000);
    if (history.isEmpty()) {
      return;
    }
    TreeState full = Replay.fold(root, history);
    TreeState claimed = Replay.replayAll(hot, List.of(root)).get(root);
    if (claimed == null || !claimed.toSnapshot().equals(full.toSnapshot())) {
      compactionViolations.add(
          "run "
              + root
              + ": a claim after compaction up to seq "
              + hot.compactedTo(root)
              + " sees "
              + (claimed == null ? "nothing" : "seq " + claimed.lastSeq())
              + ", not the state a full replay to seq "
              + full.lastSeq()
              + " gives");
    }
  }

  private void registerFlows() {
    List<Flow> flows = SimWorkload.flows(random);
    flows.stream()
        .filter(f -> f.definition().recovery() == RecoveryPolicy.FAIL)
        .forEach(f -> failFlows.add(f.name()));
    FlowRegistry registry =
        new FlowRegistry(TestFlows.READER, base.metadata(), base.blobs(), global.clock());
    flows.forEach(registry::register);
    registry.register(events.flow());
    events.schedule(Duration.ofSeconds(60));
    List<Flow> submittable = flows.stream().filter(f -> !f.name().equals("child")).toList();
    int count = 5 + random.nextInt(16);
    for (int i = 0; i < count; i++) {
      Submission submission =
          new Submission(
              i,
              submittable.get(random.nextInt(submittable.size())).name(),
              "seed-" + seed + "-" + i);
      submissions.add(submission);
      global.schedule(Duration.ofMillis(random.nextInt(60_000)), () -> submit(submission));
    }
  }

  private void submit(Submission submission) {
    if (submission.runId != null) {
      return;
    }
    SimNode sim = anyUsable();
    if (sim == null) {
      global.schedule(Duration.ofSeconds(1), () -> submit(submission));
      return;
    }
    int attempt = ++submission.attempts;
    sim.node
        .orchestrator()
        .submitAsync(
            submission.flow,
            TestFlows.json("{\"x\": " + submission.index + "}"),
            submission.key,
            null)
        .whenComplete(
            (result, failure) -> {
              if (failure == null && submission.runId == null) {
                submission.runId = result.run().runId();
                maybeCancel(submission);
              } else if (failure != null && submission.attempts == attempt) {
                global.schedule(Duration.ofSeconds(1), () -> submit(submission));
              }
            });
    global.schedule(
        Duration.ofSeconds(20),
        () -> {
          if (submission.runId == null && submission.attempts == attempt) {
            submit(submission);
          }
        });
  }

  private void maybeCancel(Submission submission) {
    if (random.nextInt(100) < 8) {
      global.schedule(
          Duration.ofMillis(random.nextInt(30_000)),
          () -> {
            SimNode sim = anyUsable();
            if (sim != null) {
              sim.node.orchestrator().cancelAsync(submission.runId, "chaos");
            }
          });
    }
  }

  // --- faults --------------------------------------------------------------------------------

  private void scheduleFaults() {
    int count = 3 + random.nextInt(8);
    for (int i = 0; i < count; i++) {
      Fault fault = Fault.values()[random.nextInt(Fault.values().length)];
      SimNode target = nodes.get(random.nextInt(nodes.size()));
      long at = 2_000 + random.nextInt(115_000);
      global.schedule(Duration.ofMillis(at), () -> inject(fault, target));
    }
  }

  private void inject(Fault fault, SimNode sim) {
    faultCount++;
    Instant now = global.now();
    switch (fault) {
      case CRASH -> {
        if (!sim.down) {
          crash(sim);
          global.schedule(seconds(5, 60), () -> restart(sim));
        }
      }
      case PAUSE -> {
        if (!sim.down && !sim.view.isPaused()) {
          sim.view.pause();
          global.schedule(TTL.plus(seconds(1, 25)), sim.view::resume);
        }
      }
      case DRAIN -> {
        if (!sim.down && sim.node.isReady()) {
          sim.down = true;
          sim.draining = true;
          SimScheduler drained = sim.view;
          sim.node
              .drain()
              .whenComplete(
                  (done, failure) -> {
                    drained.crash();
                    sim.draining = false;
                  });
          global.schedule(seconds(10, 40), () -> restart(sim));
        }
      }
      case PARTITION -> {
        leaseService.setReachable(sim.id, false);
        global.schedule(seconds(2, 30), () -> leaseService.setReachable(sim.id, true));
      }
      case STORE_DOWN -> faults.storeDown(sim.id, now.plus(seconds(2, 25)));
      case WATCH_LOST -> faults.watchLost(sim.id, now.plus(seconds(10, 60)));
      case CALL_FAILURES -> {
        faults.callFailureRate(0.05);
        global.schedule(Duration.ofSeconds(10), () -> faults.callFailureRate(0));
      }
      case REGRANT -> {
        // an etcd leader election: the node's lease ends and it learns so at once, while watch
        // events reach every node seconds late
        faults.watchesSlow(now.plus(seconds(5, 20)));
        sim.leases.loseLeaseNow();
      }
      case SLOW_NODE -> {
        SimScheduler slowed = sim.view;
        slowed.slowDown(1_000 + random.nextInt(3_000));
        global.schedule(seconds(10, 40), slowed::normalSpeed);
      }
      case LEASE_LOST_MIDWAY -> faults.leaseLossMidway(sim.id, now.plus(seconds(10, 40)));
      case POISON -> poison(busiest());
    }
  }

  private SimNode busiest() {
    return nodes.stream()
        .filter(n -> !n.down)
        .max(Comparator.comparingInt(n -> n.node.engine().activeCount()))
        .orElse(nodes.get(0));
  }

  private void poison(SimNode sim) {
    if (sim.down) {
      return;
    }
    List<UUID> owned =
        submissions.stream()
            .map(submission -> submission.runId)
            .filter(runId -> runId != null && sim.node.engine().owns(runId))
            .toList();
    if (owned.size() < 2) {
      return;
    }
    List<UUID> victims = owned.subList(0, (owned.size() + 1) / 2);
    victims.forEach(faults::poison);
    crash(sim);
    for (int i = 0; i < 1_100; i++) {
      base.metadata()
          .addSignal(
              victims.get(i % victims.size()),
              SignalType.APPROVE,
              "nothing-waits-here",
              null,
              global.now());
    }
    global.schedule(seconds(5, 60), () -> restart(sim));
  }

  private Duration seconds(int min, int max) {
    return Duration.ofMillis(min * 1000L + random.nextInt((max - min) * 1000));
  }

  /** The end of the fault schedule: every node is up and reaches everything again. */
  private void heal() {
    faults.heal();
    for (SimNode sim : nodes) {
      leaseService.setReachable(sim.id, true);
      if (sim.view.isPaused()) {
        sim.view.resume();
      }
      sim.view.normalSpeed();
      restart(sim);
    }
  }

  // --- end -----------------------------------------------------------------------------------

  private boolean finished() {
    if (!past(FAULT_WINDOW)) {
      return false;
    }
    for (Submission submission : submissions) {
      if (submission.runId == null) {
        return false;
      }
      RunStatus status =
          base.metadata().findRun(submission.runId).map(r -> r.status()).orElse(null);
      if (status == null || (!status.isTerminal() && !faults.poisoned(submission.runId))) {
        return false;
      }
    }
    return events.finished(faults::poisoned);
  }

  private boolean past(Duration since) {
    return !global.now().isBefore(SettableClock.EPOCH.plus(since));
  }

  private String stuck() {
    List<String> open = new ArrayList<>();
    for (Submission submission : submissions) {
      if (submission.runId == null) {
        open.add(submission.key + " never acknowledged");
      } else {
        base.metadata()
            .findRun(submission.runId)
            .filter(r -> !r.status().isTerminal())
            .ifPresent(r -> open.add(describe(r)));
      }
    }
    return String.join("; ", open) + events.stuck();
  }

  private String describe(RunRecord run) {
    Map<String, CompletableFuture<String>> described = new HashMap<>();
    nodes.stream()
        .filter(n -> !n.down && n.node.engine().owns(run.runId()))
        .forEach(n -> described.put(n.id, n.node.engine().describe(run.runId())));
    global.runDue();
    List<String> engines =
        nodes.stream()
            .filter(n -> !n.down && n.node.engine().owns(run.runId()))
            .map(
                n ->
                    n.id
                        + "{"
                        + described.get(n.id).getNow("(its loop did not answer)")
                        + " lease="
                        + n.node.leases().state()
                        + " phase="
                        + n.node.phase()
                        + "}")
            .toList();
    String lease =
        leaseService.revision() < 0
            ? ""
            : nodes
                .get(0)
                .node
                .leases()
                .getLease(run.runId())
                .map(l -> l.owner() + "@" + l.token())
                .orElse("none");
    List<JournalEntry> journal = base.journal().readHistory(run.runId(), 1, 10_000);
    String tail =
        journal.subList(Math.max(0, journal.size() - 6), journal.size()).stream()
            .map(e -> e.seq() + "@" + e.timestamp() + " " + e.event())
            .reduce((a, b) -> a + "\n    " + b)
            .orElse("");
    return run.runId()
        + " "
        + run.flowName()
        + " "
        + run.status()
        + " owner="
        + run.orchestratorId()
        + " wakeAt="
        + run.wakeAt()
        + " engines="
        + engines
        + " lease="
        + lease
        + "\n    "
        + tail;
  }

  private List<UUID> roots() {
    List<UUID> roots = new ArrayList<>();
    for (Submission submission : submissions) {
      base.metadata().findRunByIdempotencyKey(submission.key).ifPresent(r -> roots.add(r.runId()));
    }
    for (String key : events.keys()) {
      base.metadata().findRunByIdempotencyKey(key).ifPresent(r -> roots.add(r.runId()));
    }
    return roots;
  }

  private List<String> submissionKeys() {
    return submissions.stream().map(s -> s.key).toList();
  }

  private Map<String, UUID> acknowledged() {
    Map<String, UUID> acked = new HashMap<>();
    submissions.stream().filter(s -> s.runId != null).forEach(s -> acked.put(s.key, s.runId));
    return acked;
  }

  private Stats stats() {
    long fenced = fencedOutOfRetired;
    long claims = claimsOfRetired;
    long revoked = revokedOfRetired;
    long standDowns = standDownsOfRetired;
    for (SimNode sim : nodes) {
      fenced += sim.metrics.counter(EngineMetrics.JOURNAL_FENCED_OUT).getCount();
      claims += sim.metrics.counter(EngineMetrics.CLAIMS).getCount();
      revoked += sim.metrics.counter(FailureDetector.DEAD_NODES_REVOKED).getCount();
      standDowns += sim.metrics.counter(OrchestratorNode.STORE_OUTAGE_HANDOFFS).getCount();
    }
    return new Stats(
        nodes.size(),
        submissions.size(),
        faultCount,
        fenced,
        claims,
        revoked,
        standDowns,
        compacted,
        Duration.between(SettableClock.EPOCH, global.now()));
  }
}

package io.baton.node.process;

import static io.baton.node.process.ProcessTestSupport.applyFlow;
import static io.baton.node.process.ProcessTestSupport.clusterNodeEnv;
import static io.baton.node.process.ProcessTestSupport.get;
import static io.baton.node.process.ProcessTestSupport.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.lease.etcd.EtcdTestCluster;
import io.baton.store.postgres.testkit.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;

/**
 * A rolling restart under load, as a StatefulSet's rolling update does it, on real processes: three
 * {@code baton node}s on PostgreSQL and etcd take a steady stream of 3-step runs whose first step
 * calls a local ledger service that records every Idempotency-Key, and, one submission in five, a
 * run that waits for an approval (answered by a script that looks for runs waiting for one, on any
 * node) and then sleeps on a durable timer; each node in turn gets SIGTERM, must exit 0, and is
 * started again with the same id; then the cluster scales to 5 nodes and down to 2. Then: no run
 * failed or went missing, no step completion was journaled twice, every side effect belongs to a
 * submitted run. The figures (p99 of run time, steady and during the roll and scaling) are printed.
 * {@code deploy/bench.sh rollout} runs the long version ({@code -Dbaton.rollout.steadySeconds},
 * {@code -Dbaton.rollout.runsPerSecond}).
 *
 * <p>The load goes, as through a Kubernetes Service, only to nodes whose {@code /health/ready}
 * answered 200 at the last probe (every {@link #READINESS_PROBE}); {@code
 * -Dbaton.rollout.followReadiness=false} sends it to every node that answers at all. The nodes warm
 * up before they report ready ({@code -Dbaton.rollout.warmupRuns}, the node's {@code warmup.runs};
 * 0 turns it off).
 */
class RollingRestartIT {
  private static final int NODES = 3;
  private static final int SCALED_UP = 5;
  private static final int SCALED_DOWN = 2;
  private static final Duration DRAIN = Duration.ofSeconds(2);
  private static final Map<String, List<String>> STEPS =
      Map.of(
          "rollout", List.of("call", "check", "after"),
          "rollout-waits", List.of("ask", "pause", "done"));

  /** How often the load's "Service" probes each node's readiness (the chart probes every 2 s). */
  private static final Duration READINESS_PROBE = Duration.ofMillis(500);

  /** One submission in this many is a run that waits for an approval and a timer. */
  private static final int WAITS_EVERY = 5;

  private static final String FLOW =
      """
      name: rollout
      steps:
        - name: call
          capability: http
          operation: post
          params:
            url: "{{ input.url }}"
            body: {n: "{{ input.n }}"}
        - name: check
          capability: noop
          params: {key: "{{ steps.call.output.body.key }}"}
        - name: after
          capability: noop
          params: {n: "{{ input.n }}"}
      """;
  private static final String WAITS_FLOW =
      """
      name: rollout-waits
      steps:
        - name: ask
          capability: approval
          params: {prompt: "Go on with {{ input.n }}?"}
        - name: pause
          capability: sleep
          params: {duration: 1s}
        - name: done
          capability: noop
          params: {by: "{{ steps.ask.output.by }}"}
      """;

  private final AtomicInteger submissions = new AtomicInteger();
  private final AtomicInteger approvals = new AtomicInteger();
  private final Set<String> approved = ConcurrentHashMap.newKeySet();
  private final List<String> refusedEverywhere = new CopyOnWriteArrayList<>();
  private volatile boolean rolling;

  /** How many nodes, from node-0 on, take submissions. */
  private volatile int serving = NODES;

  /** Whether each node answered its last readiness probe with 200. */
  private final AtomicIntegerArray ready = new AtomicIntegerArray(SCALED_UP);

  private final boolean followReadiness =
      Boolean.parseBoolean(System.getProperty("baton.rollout.followReadiness", "true"));

  @Test
  void a_rolling_restart_under_load_loses_and_repeats_nothing() throws Exception {
    long steadySeconds = Long.getLong("baton.rollout.steadySeconds", 5);
    int runsPerSecond = Integer.getInteger("baton.rollout.runsPerSecond", 10);
    Path dir = ProcessTestSupport.workDir(Map.of());
    String cluster = "rollout-" + System.nanoTime();
    RolloutLedger ledger = new RolloutLedger();
    try (EtcdTestCluster etcd = EtcdTestCluster.start(1);
        TestDatabase db = TestDatabase.create("rollout");
        HeldEndpoint sideEffects = new HeldEndpoint(100)) {
      int[] ports = new int[SCALED_UP];
      AtomicReferenceArray<BatonProcess> nodes = new AtomicReferenceArray<>(SCALED_UP);
      for (int i = 0; i < SCALED_UP; i++) {
        ports[i] = ProcessTestSupport.freePort();
      }
      for (int i = 0; i < NODES; i++) {
        nodes.set(i, start(dir, i, ports[i], db, etcd, cluster));
      }
      try {
        roll(nodes, ports, dir, db, etcd, cluster, ledger, sideEffects.url(), runsPerSecond);
        check(api(ports[0]), ledger, sideEffects, runsPerSecond, steadySeconds);
      } finally {
        closeAll(nodes);
      }
    }
  }

  /** Steady load, then each node in turn stopped with SIGTERM and started again, then steady. */
  private void roll(
      AtomicReferenceArray<BatonProcess> nodes,
      int[] ports,
      Path dir,
      TestDatabase db,
      EtcdTestCluster etcd,
      String cluster,
      RolloutLedger ledger,
      String sideEffectUrl,
      int runsPerSecond)
      throws Exception {
    long steadySeconds = Long.getLong("baton.rollout.steadySeconds", 5);
    ScheduledExecutorService load = Executors.newSingleThreadScheduledExecutor();
    ScheduledExecutorService approver = Executors.newSingleThreadScheduledExecutor();
    ScheduledExecutorService prober = Executors.newSingleThreadScheduledExecutor();
    var unusedProbes =
        prober.scheduleWithFixedDelay(
            () -> probeReadiness(ports), 0, READINESS_PROBE.toMillis(), TimeUnit.MILLISECONDS);
    try {
      for (int i = 0; i < NODES; i++) {
        nodes.get(i).awaitReady(api(ports[i]), Duration.ofMinutes(3));
      }
      applyFlow(api(ports[0]), FLOW);
      applyFlow(api(ports[0]), WAITS_FLOW);
      var unused =
          load.scheduleAtFixedRate(
              () -> submitOne(ports, ledger, sideEffectUrl),
              0,
              1000 / runsPerSecond,
              TimeUnit.MILLISECONDS);
      var unusedToo =
          approver.scheduleWithFixedDelay(
              () -> approveWaiting(ports), 500, 500, TimeUnit.MILLISECONDS);
      await()
          .atMost(Duration.ofSeconds(steadySeconds + 10))
          .pollDelay(Duration.ofSeconds(steadySeconds))
          .until(() -> true);
      rolling = true;
      for (int i = 0; i < NODES; i++) {
        BatonProcess old = nodes.get(i);
        old.terminate();
        assertThat(old.awaitExit(Duration.ofSeconds(60))).as(old.output()).isZero();
        nodes.set(i, start(dir, i, ports[i], db, etcd, cluster));
        nodes.get(i).awaitReady(api(ports[i]), Duration.ofMinutes(3));
      }
      scale(nodes, ports, dir, db, etcd, cluster);
      rolling = false;
      await()
          .atMost(Duration.ofSeconds(steadySeconds + 10))
          .pollDelay(Duration.ofSeconds(steadySeconds))
          .until(() -> true);
    } finally {
      load.shutdownNow();
      load.awaitTermination(30, TimeUnit.SECONDS);
      prober.shutdownNow();
      prober.awaitTermination(30, TimeUnit.SECONDS);
    }
    // the script goes on answering until every run asking for an approval has its answer
    try {
      await()
          .atMost(Duration.ofMinutes(2))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> waitingForApproval(ports[0]).isEmpty());
    } finally {
      approver.shutdownNow();
      approver.awaitTermination(30, TimeUnit.SECONDS);
    }
  }

  /**
   * The approval script: asks a serving node for the runs waiting for an approval and approves each
   * (a node that is restarting does not answer; the next pass asks another).
   */
  private void approveWaiting(int[] ports) {
    int port = ports[approvals.incrementAndGet() % serving];
    try {
      for (String runId : waitingForApproval(port)) {
        post(api(port) + "/api/runs/" + runId + "/approve", "{\"by\": \"rollout-script\"}");
        approved.add(runId);
      }
    } catch (Exception unavailable) {
      // restarting or draining: the next pass goes to another node
    }
  }

  /** The Service's view: which nodes answered their readiness probe with 200. */
  private void probeReadiness(int[] ports) {
    for (int i = 0; i < ports.length; i++) {
      ready.set(i, BatonProcess.status(api(ports[i]) + "/health/ready") == 200 ? 1 : 0);
    }
  }

  /**
   * The port the {@code attempt}-th try of submission {@code n} goes to: among the serving nodes,
   * those that were ready at the last probe when following readiness and any is.
   */
  private int target(int[] ports, int n, int attempt) {
    int count = serving;
    List<Integer> candidates = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      if (!followReadiness || ready.get(i) == 1) {
        candidates.add(ports[i]);
      }
    }
    if (candidates.isEmpty()) {
      return ports[(n + attempt) % count];
    }
    return candidates.get((n + attempt) % candidates.size());
  }

  private static List<String> waitingForApproval(int port) throws Exception {
    List<String> waiting = new ArrayList<>();
    for (JsonNode run :
        get(api(port) + "/api/v1/runs?state=waiting-approval&flow=rollout-waits&limit=200")
            .path("runs")) {
      waiting.add(run.path("id").asText());
    }
    return waiting;
  }

  /**
   * Scales 3 to 5 (new ids join), then 5 to 2: the leaving nodes get no new submissions (as a
   * Service drops a terminating pod's endpoint) and are stopped with SIGTERM one by one, highest id
   * first, each exiting 0.
   */
  private void scale(
      AtomicReferenceArray<BatonProcess> nodes,
      int[] ports,
      Path dir,
      TestDatabase db,
      EtcdTestCluster etcd,
      String cluster)
      throws Exception {
    for (int i = NODES; i < SCALED_UP; i++) {
      nodes.set(i, start(dir, i, ports[i], db, etcd, cluster));
    }
    for (int i = NODES; i < SCALED_UP; i++) {
      nodes.get(i).awaitReady(api(ports[i]), Duration.ofMinutes(3));
    }
    serving = SCALED_UP;
    await().pollDelay(Duration.ofSeconds(3)).until(() -> true);
    serving = SCALED_DOWN;
    for (int i = SCALED_UP - 1; i >= SCALED_DOWN; i--) {
      BatonProcess leaving = nodes.get(i);
      leaving.terminate();
      assertThat(leaving.awaitExit(Duration.ofSeconds(60))).as(leaving.output()).isZero();
    }
  }

  private void check(
      String api,
      RolloutLedger ledger,
      HeldEndpoint sideEffects,
      int runsPerSecond,
      long steadySeconds)
      throws Exception {
    {
      Set<String> finished = new HashSet<>();
      await()
          .atMost(Duration.ofMinutes(2))
          .pollInterval(Duration.ofMillis(500))
          .untilAsserted(
              () ->
                  assertThat(unfinished(api, ledger.runIds(), finished))
                      .as("runs not finished (id: status on owner)")
                      .isEmpty());

      RolloutLedger.Verdict verdict = ledger.check(api, STEPS, sideEffects.keys());
      System.out.printf(
          "rolling restart of %d nodes and scaling to %d and %d under %d runs/s: %d runs"
              + " (%d waiting for an approval and a timer, %d approvals sent),"
              + " %d not succeeded,"
              + " %d step completions journaled twice, %d unknown side effects; p99 run time %s%n",
          NODES,
          SCALED_UP,
          SCALED_DOWN,
          runsPerSecond,
          ledger.size(),
          ledger.count("rollout-waits"),
          approved.size(),
          verdict.notSucceeded().size(),
          verdict.completedTwice().size(),
          verdict.unknownSideEffects().size(),
          verdict.p99ByPhase());
      System.out.println(verdict.rollTail());
      System.out.println("slowest runs during the roll (claims and steps since creation):");
      verdict.slowestDuringRoll().forEach(slow -> System.out.println("  " + slow));
      assertThat(refusedEverywhere).as("submissions no node took").isEmpty();
      assertThat(ledger.size()).isGreaterThan(runsPerSecond * (int) steadySeconds);
      assertThat(verdict.notSucceeded()).isEmpty();
      assertThat(verdict.completedTwice()).isEmpty();
      assertThat(verdict.unknownSideEffects()).isEmpty();
      assertThat(verdict.p99ByPhase()).containsKeys("steady", "during roll");
      assertThat(ledger.count("rollout-waits")).as("runs that waited").isPositive();
    }
  }

  private static void closeAll(AtomicReferenceArray<BatonProcess> nodes) {
    for (int i = 0; i < nodes.length(); i++) {
      if (nodes.get(i) != null) {
        nodes.get(i).close();
      }
    }
  }

  private static BatonProcess start(
      Path dir, int index, int port, TestDatabase db, EtcdTestCluster etcd, String cluster)
      throws Exception {
    Map<String, String> env = clusterNodeEnv("node-" + index, port, db, etcd, cluster, DRAIN);
    env.put("BATON_WARMUP_RUNS", System.getProperty("baton.rollout.warmupRuns", "200"));
    return BatonProcess.start(dir, env, "node");
  }

  private static String api(int port) {
    return "http://127.0.0.1:" + port;
  }

  /**
   * Submits one run under a fresh idempotency key, to the next node; a node that is restarting
   * refuses or does not answer, and the same key goes to the next one (a repeat answers the run the
   * first submission created, so a lost reply never makes a second run).
   */
  private void submitOne(int[] ports, RolloutLedger ledger, String sideEffectUrl) {
    int n = submissions.incrementAndGet();
    String key = "load-" + n;
    boolean duringRoll = rolling;
    String flow = n % WAITS_EVERY == 0 ? "rollout-waits" : "rollout";
    String body =
        "{\"flow\": \""
            + flow
            + "\", \"idempotencyKey\": \""
            + key
            + "\", \"input\": {\"url\": \""
            + sideEffectUrl
            + "\", \"n\": "
            + n
            + "}}";
    List<Exception> failures = new ArrayList<>();
    for (int attempt = 0; attempt < 60; attempt++) {
      int port = target(ports, n, attempt);
      try {
        String runId = post(api(port) + "/api/runs", body).path("id").asText();
        ledger.submitted(key, runId, flow, duringRoll);
        return;
      } catch (Exception refused) {
        failures.add(refused);
      }
    }
    refusedEverywhere.add(key + ": " + failures);
  }

  /**
   * The runs not finished yet, each as "id: status on owner", so that a run that never finishes is
   * named in the failure; {@code finished} remembers the runs already seen finished (a final status
   * does not change), so each poll reads only the others.
   */
  private static List<String> unfinished(String api, List<String> runIds, Set<String> finished)
      throws Exception {
    List<String> open = new ArrayList<>();
    for (String runId : runIds) {
      if (finished.contains(runId)) {
        continue;
      }
      JsonNode run = get(api + "/api/runs/" + runId, Duration.ofSeconds(20));
      String status = run.path("status").asText();
      if (status.equals("SUCCEEDED") || status.equals("FAILED") || status.equals("CANCELLED")) {
        finished.add(runId);
      } else {
        open.add(runId + ": " + status + " on " + run.path("orchestratorId").asText());
      }
    }
    return open;
  }
}

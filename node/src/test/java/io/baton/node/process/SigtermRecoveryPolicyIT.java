package io.baton.node.process;

import static io.baton.node.process.ProcessTestSupport.applyFlow;
import static io.baton.node.process.ProcessTestSupport.clusterNodeEnv;
import static io.baton.node.process.ProcessTestSupport.completions;
import static io.baton.node.process.ProcessTestSupport.get;
import static io.baton.node.process.ProcessTestSupport.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.lease.etcd.EtcdTestCluster;
import io.baton.store.postgres.testkit.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Two real {@code baton node} processes on PostgreSQL and etcd, a {@code recovery: fail} flow and a
 * {@code recovery: resume} flow. Node A, stopped with SIGTERM, owns runs of each flow in three
 * states: quiet (between two steps, on a timer shorter than the park threshold), drained (a call
 * held at the SIGTERM and answered during the drain) and interrupted (a call still held when the
 * drain deadline passes). The recovery policy is for runs in which a step may have been executing
 * when their owner let go, so it applies to the interrupted runs only: every other run continues on
 * node B whatever its flow's policy.
 */
class SigtermRecoveryPolicyIT {
  /** Long enough for the drained calls, answered once node A drains, to be journaled in time. */
  private static final Duration DRAIN = Duration.ofSeconds(3);

  /**
   * Below the park threshold (2 s), so a run sleeping this long stays RUNNING and keeps its lease;
   * node A must get its SIGTERM within this long of the quiet runs' sleeps starting.
   */
  private static final String SHORT_PAUSE = "1900ms";

  private static final int RUNS_PER_KIND = 3;
  private static final String FAIL_FLOW = "careful";
  private static final String RESUME_FLOW = "resilient";
  private static final List<String> STEPS = List.of("call", "pause", "after");

  private static final String FLOW =
      """
      name: %s
      recovery: %s
      steps:
        - name: call
          capability: http
          operation: post
          params:
            url: "{{ input.url }}"
            body: {n: "{{ input.n }}"}
        - name: pause
          capability: sleep
          params: {duration: "{{ input.pause }}"}
        - name: after
          capability: noop
          params: {answer: "{{ steps.call.output.body.key }}"}
      """;

  /** Where a run is when node A gets its SIGTERM. */
  private enum Kind {
    /** Its call returned and it sleeps {@link #SHORT_PAUSE}: no step executes. */
    QUIET,
    /** Its call is held at the SIGTERM and answered during the drain. */
    DRAINED,
    /** Its call is still held when the drain deadline passes. */
    INTERRUPTED
  }

  private record Run(String id, String flow, Kind kind, HeldEndpoint endpoint) {
    boolean interrupted() {
      return kind == Kind.INTERRUPTED;
    }

    boolean failedByPolicy() {
      return interrupted() && flow.equals(FAIL_FLOW);
    }

    /** Requests the call step made: an interrupted call is made again once it continues. */
    int requests() {
      return endpoint.requests(id + "/call");
    }

    @Override
    public String toString() {
      return flow + " " + kind + " run " + id;
    }
  }

  @Test
  void a_drain_leaves_only_the_runs_it_interrupted_to_the_recovery_policy() throws Exception {
    Path dir = ProcessTestSupport.workDir(Map.of());
    String cluster = "policy-" + System.nanoTime();
    try (EtcdTestCluster etcd = EtcdTestCluster.start(1);
        TestDatabase db = TestDatabase.create("policy");
        HeldEndpoint answering = new HeldEndpoint(0);
        HeldEndpoint drainGate = new HeldEndpoint(-1);
        HeldEndpoint stuck = new HeldEndpoint(-1)) {
      int portA = ProcessTestSupport.freePort();
      int portB = ProcessTestSupport.freePort();
      String apiA = "http://127.0.0.1:" + portA;
      String apiB = "http://127.0.0.1:" + portB;
      try (BatonProcess a =
              BatonProcess.start(dir, env("node-a", portA, db, etcd, cluster), "node");
          BatonProcess b =
              BatonProcess.start(dir, env("node-b", portB, db, etcd, cluster), "node")) {
        a.awaitReady(apiA, Duration.ofMinutes(3));
        b.awaitReady(apiB, Duration.ofMinutes(3));
        applyFlow(apiA, FLOW.formatted(FAIL_FLOW, "fail"));
        applyFlow(apiA, FLOW.formatted(RESUME_FLOW, "resume"));

        List<Run> runs = new ArrayList<>(submit(apiA, Kind.DRAINED, drainGate));
        runs.addAll(submit(apiA, Kind.INTERRUPTED, stuck));
        int held = 2 * RUNS_PER_KIND;
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> drainGate.waiting() == held && stuck.waiting() == held);
        assertRunningOnNodeA(apiA, runs);
        // From the first quiet sleep starting to the SIGTERM must take less than SHORT_PAUSE.
        List<Run> quiet = submit(apiA, Kind.QUIET, answering);
        runs.addAll(quiet);
        await()
            .atMost(Duration.ofSeconds(5))
            .pollInterval(Duration.ofMillis(20))
            .untilAsserted(() -> assertQuietOnNodeA(apiA, quiet));

        Instant terminatedAt = Instant.now();
        a.terminate();
        await()
            .atMost(Duration.ofSeconds(10))
            .pollInterval(Duration.ofMillis(20))
            .until(() -> draining(apiA));
        // Answered only now, so node A can journal these calls but start no further step.
        drainGate.release();
        assertThat(a.awaitExit(Duration.ofSeconds(60))).as(a.output()).isZero();
        assertThat(a.output()).as("the drain hit its deadline").contains("drain timed out");
        stuck.release();

        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> allTerminal(apiB, runs));
        SoftAssertions softly = new SoftAssertions();
        assertSigtermCameBeforeTheTimers(softly, apiB, quiet, terminatedAt);
        assertOutcomes(softly, apiB, runs);
        resumeFailedRuns(softly, apiB, runs);
        softly.assertAll();
      }
    }
  }

  /**
   * The default lease TTL: with a shorter one a node whose first lease grant is slow (a cold JVM)
   * is SUSPENDED for a moment right after it reports ready, and a run submitted to node A then is
   * stored PENDING and may start on node B.
   */
  private static Map<String, String> env(
      String nodeId, int port, TestDatabase db, EtcdTestCluster etcd, String cluster) {
    Map<String, String> env = clusterNodeEnv(nodeId, port, db, etcd, cluster, DRAIN);
    env.put("BATON_LEASE_TTL", "10s");
    return env;
  }

  private static List<Run> submit(String api, Kind kind, HeldEndpoint endpoint) throws Exception {
    String pause = kind == Kind.QUIET ? SHORT_PAUSE : "0s";
    List<Run> runs = new ArrayList<>();
    for (String flow : List.of(FAIL_FLOW, RESUME_FLOW)) {
      for (int i = 0; i < RUNS_PER_KIND; i++) {
        String body =
            "{\"flow\": \"%s\", \"input\": {\"url\": \"%s\", \"n\": %d, \"pause\": \"%s\"}}"
                .formatted(flow, endpoint.url(), i, pause);
        runs.add(new Run(post(api + "/api/runs", body).path("id").asText(), flow, kind, endpoint));
      }
    }
    return runs;
  }

  private static void assertRunningOnNodeA(String api, List<Run> runs) throws Exception {
    for (Run run : runs) {
      JsonNode view = get(api + "/api/runs/" + run.id());
      assertThat(view.path("status").asText()).as("%s", run).isEqualTo("RUNNING");
      assertThat(view.path("orchestratorId").asText()).as("%s", run).isEqualTo("node-a");
    }
  }

  /** Step 1 returned, step 2 sleeps on a timer due within the park threshold, step 3 waits. */
  private static void assertQuietOnNodeA(String api, List<Run> runs) throws Exception {
    assertRunningOnNodeA(api, runs);
    for (Run run : runs) {
      JsonNode view = get(api + "/api/runs/" + run.id());
      assertThat(step(view, "call").path("status").asText()).as("%s", run).isEqualTo("SUCCEEDED");
      assertThat(step(view, "pause").path("waitingFor").asText()).as("%s", run).isEqualTo("timer");
      assertThat(step(view, "after").path("status").asText()).as("%s", run).isEqualTo("PENDING");
    }
  }

  private static JsonNode step(JsonNode run, String name) {
    for (JsonNode step : run.path("steps")) {
      if (step.path("name").asText().equals(name)) {
        return step;
      }
    }
    throw new AssertionError("run " + run.path("id").asText() + " has no step " + name);
  }

  private static boolean draining(String api) throws Exception {
    return get(api + "/health/ready").path("reasons").toString().contains("is DRAINING");
  }

  private static boolean allTerminal(String api, List<Run> runs) throws Exception {
    for (Run run : runs) {
      String status = get(api + "/api/runs/" + run.id()).path("status").asText();
      if (!List.of("SUCCEEDED", "FAILED", "CANCELLED").contains(status)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Every run was handed to node B unfinished; only the interrupted runs of the fail flow ended
   * FAILED (recoverable, their call not made again); every other run succeeded, each step completed
   * once.
   */
  private static void assertOutcomes(SoftAssertions softly, String api, List<Run> runs)
      throws Exception {
    for (Run run : runs) {
      JsonNode view = get(api + "/api/runs/" + run.id());
      softly
          .assertThat(claimsBy(view, "node-b"))
          .as("%s: claims by node B (the drain handed it over unfinished)", run)
          .isNotEmpty();
      String status = view.path("status").asText();
      softly
          .assertThat(status)
          .as("%s (%s)", run, view.path("statusReason").asText())
          .isEqualTo(run.failedByPolicy() ? "FAILED" : "SUCCEEDED");
      if (run.failedByPolicy()) {
        softly.assertThat(view.path("recoverable").asBoolean()).as("%s recoverable", run).isTrue();
        softly
            .assertThat(view.path("statusReason").asText())
            .as("%s reason", run)
            .contains("node-a");
        softly.assertThat(run.requests()).as("%s calls before a resume", run).isEqualTo(1);
      } else if (status.equals("SUCCEEDED")) {
        assertEachStepCompletedOnce(softly, api, run);
      }
    }
  }

  private static List<String> claimsBy(JsonNode run, String node) {
    List<String> reasons = new ArrayList<>();
    for (JsonNode claim : run.path("ownership")) {
      if (claim.path("node").asText().equals(node)) {
        reasons.add(claim.path("reason").asText());
      }
    }
    return reasons;
  }

  /**
   * The quiet runs were quiet: node A got its SIGTERM before any of their timers fell due (so no
   * quiet run had started its next step).
   */
  private static void assertSigtermCameBeforeTheTimers(
      SoftAssertions softly, String api, List<Run> quiet, Instant terminatedAt) throws Exception {
    Instant firstDue = Instant.MAX;
    for (Run run : quiet) {
      for (JsonNode entry : get(api + "/api/runs/" + run.id() + "/journal").path("entries")) {
        JsonNode event = entry.path("event");
        if (event.path("type").asText().equals("RunWaiting")) {
          Instant due = Instant.parse(event.path("dueAt").asText());
          firstDue = due.isBefore(firstDue) ? due : firstDue;
        }
      }
    }
    Duration margin = Duration.between(terminatedAt, firstDue);
    System.out.printf(
        "SIGTERM sent %d ms before the first quiet timer fell due (%s)%n",
        margin.toMillis(), SHORT_PAUSE);
    softly.assertThat(margin).as("SIGTERM before the quiet timers fell due").isPositive();
  }

  private static void assertEachStepCompletedOnce(SoftAssertions softly, String api, Run run)
      throws Exception {
    for (String step : STEPS) {
      softly.assertThat(completions(api, run.id(), step)).as("%s: %s", run, step).isEqualTo(1);
    }
    softly.assertThat(run.requests()).as("%s calls", run).isEqualTo(run.interrupted() ? 2 : 1);
  }

  /** A person resumes the runs the policy failed, on node B: each then succeeds. */
  private static void resumeFailedRuns(SoftAssertions softly, String api, List<Run> runs)
      throws Exception {
    List<Run> failed = runs.stream().filter(Run::failedByPolicy).toList();
    for (Run run : failed) {
      post(api + "/api/runs/" + run.id() + "/resume", "{\"by\": \"ops\"}");
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> allTerminal(api, failed) && allClaimedToResume(api, failed));
    for (Run run : failed) {
      softly
          .assertThat(get(api + "/api/runs/" + run.id()).path("status").asText())
          .as("%s after a resume", run)
          .isEqualTo("SUCCEEDED");
      assertEachStepCompletedOnce(softly, api, run);
    }
  }

  private static boolean allClaimedToResume(String api, List<Run> runs) throws Exception {
    for (Run run : runs) {
      if (!get(api + "/api/runs/" + run.id()).path("ownership").toString().contains("RESUME")) {
        return false;
      }
    }
    return true;
  }
}

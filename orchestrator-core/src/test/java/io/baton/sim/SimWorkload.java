package io.baton.sim;

import io.baton.engine.testing.FlowGenerator;
import io.baton.engine.testing.TestFlows;
import io.baton.flow.Backoff;
import io.baton.flow.Flow;
import io.baton.flow.RecoveryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The flows one seed runs: sequences and DAGs with retries, timers, approvals, subflows and steps
 * that repeat, and runaway flows ({@link #RUNAWAY}) that start themselves until the nodes' {@code
 * RunLimits} stop them.
 */
final class SimWorkload {
  private SimWorkload() {}

  /** Flows that start themselves without end: each tree must stop at a limit. */
  static final List<String> RUNAWAY = List.of("runaway", "fan");

  static List<Flow> flows(Random random) {
    List<Flow> flows = new ArrayList<>();
    flows.add(FlowGenerator.dagOfDeterministicSteps(random, "dag-a"));
    flows.add(FlowGenerator.dagOfSlowSteps(random, "dag-b"));
    flows.add(FlowGenerator.dagOfSlowSteps(random, "dag-c"));
    flows.add(
        TestFlows.named("timer")
            .step("before", "det", FlowGenerator.detParams(random.nextInt(2), List.of()))
            .retry(3, Duration.ofMillis(200), Backoff.FIXED, null, false, List.of())
            .step("nap", "wait-timer", "{\"duration\": \"" + (1 + random.nextInt(90)) + "s\"}")
            .step("after", "det", FlowGenerator.detParams(0, List.of("before")))
            .build());
    flows.add(
        TestFlows.named("approval")
            .step("prepare", "det", FlowGenerator.detParams(0, List.of()))
            .step("ask", "wait-approval", "{\"prompt\": \"go {{ input.x }}?\"}")
            .step("ship", "det", FlowGenerator.detParams(random.nextInt(2), List.of("prepare")))
            .retry(3, Duration.ofSeconds(1), Backoff.EXPONENTIAL, null, false, List.of())
            .build());
    flows.add(
        TestFlows.named("child")
            .step("c1", "det", FlowGenerator.detParams(random.nextInt(3), List.of()))
            .retry(3, Duration.ofMillis(500), Backoff.LINEAR, null, false, List.of())
            .step("c2", "wait-timer", "{\"duration\": \"" + (1 + random.nextInt(5)) + "s\"}")
            .step("c3", "det", FlowGenerator.detParams(0, List.of("c1")))
            .build());
    flows.add(
        TestFlows.named("parent")
            .step("p1", "det", FlowGenerator.detParams(0, List.of()))
            .step(
                "call", "call-flow", "{\"flow\": \"child\", \"input\": {\"x\": \"{{ input.x }}\"}}")
            .step("p2", "det", FlowGenerator.detParams(0, List.of("p1")))
            .build());
    flows.add(
        TestFlows.named("careful-slow")
            .recovery(RecoveryPolicy.FAIL)
            .step("a", "det-slow", slowParams(random.nextInt(2), List.of(), random.nextInt(15_000)))
            .retry(2, Duration.ofSeconds(1), Backoff.FIXED, null, false, List.of())
            .step("b", "det-slow", slowParams(0, List.of("a"), random.nextInt(15_000)))
            .step("c", "wait-timer", "{\"duration\": \"" + (1 + random.nextInt(5)) + "s\"}")
            .step("d", "det", FlowGenerator.detParams(0, List.of("b")))
            .build());
    flows.add(
        TestFlows.named("perishable")
            .maxResumeAge(Duration.ofSeconds(20 + random.nextInt(60)))
            .step("a", "det-slow", slowParams(0, List.of(), random.nextInt(15_000)))
            .step(
                "b",
                "det-slow",
                slowParams(random.nextInt(2), List.of("a"), random.nextInt(15_000)))
            .retry(2, Duration.ofMillis(300), Backoff.FIXED, null, false, List.of())
            .build());
    flows.add(
        TestFlows.named("careful")
            .recovery(RecoveryPolicy.FAIL)
            .step("only", "det", FlowGenerator.detParams(random.nextInt(2), List.of()))
            .retry(2, Duration.ofSeconds(2), Backoff.FIXED, null, false, List.of())
            .build());
    // the engine does not validate: a step that starts its own flow stands in for recursion
    // through a template or other flows, which validation cannot see
    flows.add(
        TestFlows.named("runaway")
            .step("again", "call-flow", "{\"flow\": \"runaway\", \"input\": {\"x\": 1}}")
            .build());
    flows.add(
        TestFlows.named("fan")
            .step("left", "call-flow", "{\"flow\": \"fan\"}")
            .step("right", "call-flow", "{\"flow\": \"fan\"}")
            .build());
    flows.add(FlowGenerator.loopOfDeterministicSteps(random, "looping"));
    return flows;
  }

  private static String slowParams(int failFirst, List<String> needs, int millis) {
    String params = FlowGenerator.detParams(failFirst, needs);
    return params.substring(0, params.length() - 1) + ", \"millis\": " + millis + "}";
  }
}

package io.baton.engine;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.capability.ErrorCodes;
import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.flow.Flow;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import io.baton.journal.StepFailed;
import io.baton.store.RunRecord;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Flows that start themselves stop at the node's {@link RunLimits}: the step that would go beyond a
 * limit fails with an error naming it, and the tree fails instead of growing without end. The
 * engine does not validate flows, so a step that starts its own flow directly (refused at
 * validation, see {@code CapabilityValidationTest}) stands in for recursion through a template or
 * through other flows.
 */
class RunawayFlowsTest {
  private final TestCluster cluster = new TestCluster();

  @AfterEach
  void close() {
    cluster.close();
  }

  private Orchestrator start(RunLimits limits) {
    cluster.engineConfig(config -> config.withLimits(limits));
    cluster.start("node-a");
    return cluster.node("node-a").orchestrator();
  }

  private UUID submit(Orchestrator orchestrator, String flow) {
    return cluster.await(orchestrator.submitAsync(flow, json("{}"), null, null)).run().runId();
  }

  private List<StepFailed> limitFailures(Orchestrator orchestrator, UUID root, String code) {
    return orchestrator.journal(root).stream()
        .map(JournalEntry::event)
        .filter(StepFailed.class::isInstance)
        .map(StepFailed.class::cast)
        .filter(failed -> failed.errorCode().equals(code))
        .toList();
  }

  @Test
  void a_flow_whose_only_step_starts_itself_stops_at_the_default_depth_and_fails_naming_it() {
    Orchestrator orchestrator = start(RunLimits.defaults());
    cluster.apply(
        TestFlows.named("again").step("call", "call-flow", "{\"flow\": \"again\"}").build());
    UUID root = submit(orchestrator, "again");

    cluster.runUntil(
        () -> orchestrator.find(root).status() == RunStatus.FAILED, Duration.ofMinutes(5));

    List<RunRecord> tree = cluster.stores.metadata().listTree(root);
    assertThat(tree).hasSize(RunLimits.DEFAULT_MAX_SUBFLOW_DEPTH + 1);
    assertThat(tree).allMatch(run -> run.status() == RunStatus.FAILED);
    RunRecord failed = orchestrator.find(root);
    assertThat(failed.error().code()).isEqualTo(ErrorCodes.SUBFLOW_DEPTH_EXCEEDED);
    List<StepFailed> atLimit = limitFailures(orchestrator, root, ErrorCodes.SUBFLOW_DEPTH_EXCEEDED);
    assertThat(atLimit).isNotEmpty();
    assertThat(atLimit.get(0).message())
        .contains("execution.maxSubflowDepth = 32")
        .contains("at depth 33")
        .contains("flow 'again'");
    assertThat(atLimit.get(0).retryable()).isFalse();
    cluster.settle();
    assertThat(cluster.stores.metadata().listTree(root)).hasSize(33);
  }

  @Test
  void flows_that_start_each_other_stop_at_a_configured_depth() {
    Orchestrator orchestrator = start(new RunLimits(5, 1_000));
    cluster.apply(
        TestFlows.named("ping").step("call", "call-flow", "{\"flow\": \"pong\"}").build());
    cluster.apply(
        TestFlows.named("pong").step("call", "call-flow", "{\"flow\": \"ping\"}").build());
    UUID root = submit(orchestrator, "ping");

    cluster.runUntil(() -> orchestrator.find(root).status() == RunStatus.FAILED);

    assertThat(cluster.stores.metadata().listTree(root)).hasSize(6);
    assertThat(orchestrator.find(root).error().message()).contains("execution.maxSubflowDepth = 5");
  }

  @Test
  void a_flow_that_fans_out_into_itself_stops_at_the_runs_per_tree_limit() {
    Orchestrator orchestrator = start(new RunLimits(32, 20));
    Flow fan =
        TestFlows.named("fan")
            .step("left", "call-flow", "{\"flow\": \"fan\"}")
            .step("right", "call-flow", "{\"flow\": \"fan\"}")
            .build();
    cluster.apply(fan);
    UUID root = submit(orchestrator, "fan");

    cluster.runUntil(() -> orchestrator.find(root).status().isTerminal());
    cluster.settle();

    List<RunRecord> tree = cluster.stores.metadata().listTree(root);
    assertThat(tree).hasSizeLessThanOrEqualTo(20);
    assertThat(tree).allMatch(run -> run.status().isTerminal());
    assertThat(orchestrator.find(root).status()).isEqualTo(RunStatus.FAILED);
    List<StepFailed> atLimit = limitFailures(orchestrator, root, ErrorCodes.TREE_RUNS_EXCEEDED);
    assertThat(atLimit).isNotEmpty();
    assertThat(atLimit.get(0).message()).contains("execution.maxRunsPerTree = 20");
  }

  @Test
  void a_step_whose_output_is_beyond_the_limit_fails_naming_it_and_nothing_is_journaled() {
    Orchestrator orchestrator = start(new RunLimits(32, 10_000, 100));
    cluster.apply(
        TestFlows.named("chatty")
            .step("small", "echo", "{\"ok\": true}")
            .step("big", "echo", "{\"text\": \"" + "x".repeat(200) + "\"}")
            .build());
    UUID root = submit(orchestrator, "chatty");

    cluster.runUntil(() -> orchestrator.find(root).status() == RunStatus.FAILED);

    List<StepFailed> tooLarge = limitFailures(orchestrator, root, ErrorCodes.OUTPUT_TOO_LARGE);
    assertThat(tooLarge).hasSize(1);
    assertThat(tooLarge.get(0).step()).isEqualTo("big");
    assertThat(tooLarge.get(0).message())
        .contains("execution.maxOutputSize = 100 bytes")
        .contains("larger than");
    assertThat(orchestrator.journal(root).toString()).doesNotContain("x".repeat(200));
  }

  @Test
  void a_subflow_within_the_limits_runs_as_before() {
    Orchestrator orchestrator = start(new RunLimits(1, 2));
    cluster.apply(TestFlows.named("leaf").step("only", "echo", "{\"ok\": true}").build());
    cluster.apply(TestFlows.named("top").step("call", "call-flow", "{\"flow\": \"leaf\"}").build());
    UUID root = submit(orchestrator, "top");

    cluster.runUntil(() -> orchestrator.find(root).status() == RunStatus.SUCCEEDED);
    assertThat(cluster.stores.metadata().listTree(root)).hasSize(2);
  }
}

package io.baton.engine;

import static io.baton.engine.testing.TestFlows.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.engine.testing.TestCluster;
import io.baton.engine.testing.TestFlows;
import io.baton.flow.Flow;
import io.baton.journal.ClaimReason;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import io.baton.recovery.RecoveryConfig;
import io.baton.store.RunQuery;
import io.baton.store.RunRecord;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.Assertions;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EngineRunTest {
  private final TestCluster cluster = new TestCluster();

  @AfterEach
  void close() {
    cluster.close();
  }

  private RunRecord runToEnd(Flow flow, String input) {
    cluster.start("node-a");
    cluster.apply(flow);
    Orchestrator orchestrator = cluster.node("node-a").orchestrator();
    SubmitResult submitted =
        cluster.await(orchestrator.submitAsync(flow.name(), json(input), null, null));
    UUID runId = submitted.run().runId();
    cluster.runUntil(() -> orchestrator.find(runId).status().isTerminal());
    return orchestrator.find(runId);
  }

  private List<String> eventTypes(UUID runId) {
    return cluster.node("node-a").orchestrator().journal(runId).stream()
        .map(JournalEntry::event)
        .map(e -> e.getClass().getSimpleName())
        .toList();
  }

  @Test
  void a_sequence_runs_each_step_once_in_order_and_journals_every_state_change() {
    Flow flow =
        TestFlows.named("seq")
            .step("a", "echo", "{\"v\": \"{{ input.x }}\"}")
            .step("b", "echo", "{\"from\": \"{{ steps.a.output.v }}\"}")
            .step("c", "echo", "{\"last\": \"{{ steps.b.output.from }}-{{ run.attempt }}\"}")
            .build();
    RunRecord run = runToEnd(flow, "{\"x\": \"hello\"}");

    assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(run.output()).isEqualTo(json("{\"last\": \"hello-1\"}"));
    assertThat(cluster.capabilities.calls).extracting(c -> c.step()).containsExactly("a", "b", "c");
    assertThat(eventTypes(run.runId()))
        .containsExactly(
            "RunCreated",
            "RunClaimed",
            "RunStatusChanged",
            "StepCompleted",
            "StepCompleted",
            "StepCompleted",
            "RunCompleted");
    assertThat(run.orchestratorId()).isEqualTo("node-a");
  }

  @Test
  void every_invocation_runs_with_its_run_step_and_attempt_in_the_logging_context() {
    Flow flow = TestFlows.named("logged").step("a", "echo", "{}").step("b", "echo", "{}").build();
    RunRecord run = runToEnd(flow, "{}");

    assertThat(cluster.capabilities.logContexts)
        .containsExactly(
            Map.of(
                "runId",
                run.runId().toString(),
                "rootRunId",
                run.rootRunId().toString(),
                "step",
                "a",
                "attempt",
                "1"),
            Map.of(
                "runId",
                run.runId().toString(),
                "rootRunId",
                run.rootRunId().toString(),
                "step",
                "b",
                "attempt",
                "1"));
  }

  @Test
  void every_invocation_carries_the_run_and_step_as_its_idempotency_key() {
    Flow flow = TestFlows.named("keys").step("only", "echo", "{}").build();
    RunRecord run = runToEnd(flow, "{}");
    assertThat(cluster.capabilities.calls)
        .singleElement()
        .satisfies(call -> assertThat(call.idempotencyKey()).isEqualTo(run.runId() + "/only"));
  }

  @Test
  void independent_steps_run_in_parallel_and_a_join_waits_for_both() {
    Flow flow =
        TestFlows.named("dag")
            .step("start", "echo", "{}")
            .step("left", "gate", "{}", List.of("start"), null, null)
            .step("right", "gate", "{}", List.of("start"), null, null)
            .step(
                "join",
                "echo",
                "{\"l\": \"{{ steps.left.output }}\", \"r\": \"{{ steps.right.output }}\"}",
                List.of("left", "right"),
                null,
                null)
            .output("{{ steps.join.output }}")
            .build();
    cluster.start("node-a");
    cluster.apply(flow);
    Orchestrator orchestrator = cluster.node("node-a").orchestrator();
    UUID runId =
        cluster.await(orchestrator.submitAsync("dag", json("{}"), null, null)).run().runId();

    cluster.runUntil(
        () -> cluster.capabilities.waiting("left") && cluster.capabilities.waiting("right"));
    cluster.capabilities.open("left", json("1"));
    cluster.settle();
    assertThat(cluster.capabilities.callsOf("join")).isZero();
    cluster.capabilities.open("right", json("2"));
    cluster.runUntil(() -> orchestrator.find(runId).status().isTerminal());

    assertThat(orchestrator.find(runId).output()).isEqualTo(json("{\"l\": 1, \"r\": 2}"));
  }

  @Test
  void submitting_twice_with_one_idempotency_key_returns_the_same_run() {
    Flow flow = TestFlows.named("once").step("a", "gate", "{}").build();
    cluster.start("node-a");
    cluster.apply(flow);
    Orchestrator orchestrator = cluster.node("node-a").orchestrator();
    SubmitResult first =
        cluster.await(orchestrator.submitAsync("once", json("{}"), "order-7", null));
    SubmitResult second =
        cluster.await(orchestrator.submitAsync("once", json("{}"), "order-7", null));
    assertThat(first.created()).isTrue();
    assertThat(second.created()).isFalse();
    assertThat(second.run().runId()).isEqualTo(first.run().runId());
    assertThat(orchestrator.list(RunQuery.all().withFlow("once"))).hasSize(1);
  }

  @Test
  void a_submission_beyond_capacity_waits_as_pending_and_starts_when_room_frees_up() {
    cluster
        .engineConfig(c -> c.withMaxConcurrentRuns(1))
        .recovery(RecoveryConfig.defaults().withCheckInterval(Duration.ofSeconds(1)));
    Flow flow = TestFlows.named("cap").step("a", "gate", "{}").build();
    cluster.start("node-a");
    cluster.apply(flow);
    Orchestrator orchestrator = cluster.node("node-a").orchestrator();
    UUID first =
        cluster.await(orchestrator.submitAsync("cap", json("{}"), null, null)).run().runId();
    cluster.runUntil(() -> cluster.capabilities.waiting("a"));
    SubmitResult second = cluster.await(orchestrator.submitAsync("cap", json("{}"), null, null));
    assertThat(second.run().status()).isEqualTo(RunStatus.PENDING);

    cluster.capabilities.open("a", json("1"));
    cluster.runUntil(() -> orchestrator.find(first).status() == RunStatus.SUCCEEDED);
    cluster.runUntil(
        () -> orchestrator.find(second.run().runId()).status() == RunStatus.RUNNING,
        Duration.ofSeconds(5));
    assertThat(orchestrator.get(second.run().runId()).ownership())
        .extracting(c -> c.reason())
        .containsExactly(ClaimReason.PENDING);
  }

  @Test
  void a_failed_step_stops_only_the_steps_that_depend_on_it() {
    Flow flow =
        TestFlows.named("branches")
            .step("bad", "flaky", "{\"succeedOn\": 0, \"retryable\": false}", List.of(), null, null)
            .step("after-bad", "echo", "{}", List.of("bad"), null, null)
            .step("independent", "echo", "{\"ok\": true}", List.of(), null, null)
            .build();
    RunRecord run = runToEnd(flow, "{}");

    assertThat(run.status()).isEqualTo(RunStatus.FAILED);
    assertThat(run.error().message()).contains("step bad failed");
    assertThat(cluster.capabilities.callsOf("independent")).isEqualTo(1);
    assertThat(cluster.capabilities.callsOf("after-bad")).isZero();
    assertThat(cluster.node("node-a").orchestrator().get(run.runId()).steps())
        .extracting(StepView::name, StepView::status)
        .containsExactly(
            Tuple.tuple("bad", "FAILED"),
            Tuple.tuple("after-bad", "PENDING"),
            Tuple.tuple("independent", "SUCCEEDED"));
  }

  @Test
  void an_unknown_flow_is_refused() {
    cluster.start("node-a");
    Orchestrator orchestrator = cluster.node("node-a").orchestrator();
    var future = orchestrator.submitAsync("missing", json("{}"), null, null);
    cluster.runUntil(future::isDone);
    assertThat(future).isCompletedExceptionally();
    Assertions.assertThatThrownBy(future::join).hasCauseInstanceOf(FlowNotFoundException.class);
  }
}

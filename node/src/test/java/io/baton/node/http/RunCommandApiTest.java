package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/runs/{id}/approve | reject | cancel | resume} and {@code
 * /api/runs/{id}/steps/{step}/retry-now} through a run's lifecycle.
 */
public class RunCommandApiTest extends ApiTestBase {
  private String approval;
  private String held;

  @BeforeAll
  void applyFlows() {
    approval = uniqueName("approval");
    held = uniqueName("held");
    applyFlow(TestFlows.approval(approval));
    applyFlow(TestFlows.held(held));
  }

  @Test
  void an_approved_run_carries_on_and_succeeds() {
    UUID runId = submit(approval, "{\"orderId\": \"A-1\"}");
    awaitApprovalRequested(runId, "ask");

    Reply reply =
        http.post(
            "/api/runs/" + runId + "/approve",
            "{\"by\": \"alice\", \"comment\": \"ok\", \"step\": \"ask\"}");

    assertThat(reply.status()).as("%s", reply).isEqualTo(200);
    assertThat(reply.json().get("id").asText()).isEqualTo(runId.toString());
    JsonNode run = awaitStatus(runId, "SUCCEEDED");
    assertThat(stepNamed(run, "ask").get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(stepNamed(run, "finish").get("status").asText()).isEqualTo("SUCCEEDED");
  }

  @Test
  void a_rejected_run_fails_and_cannot_be_resumed() {
    UUID runId = submit(approval, "{\"orderId\": \"A-2\"}");
    awaitApprovalRequested(runId, "ask");

    Reply reply = http.post("/api/runs/" + runId + "/reject", "{\"comment\": \"no\"}");

    assertThat(reply.status()).as("%s", reply).isEqualTo(200);
    JsonNode run = awaitStatus(runId, "FAILED");
    assertThat(run.get("recoverable").asBoolean()).isFalse();
    assertThat(run.get("error").get("code").asText()).isEqualTo("rejected");
    JsonNode conflict =
        assertProblem(http.post("/api/runs/" + runId + "/resume", ""), 409, "run-conflict");
    assertThat(conflict.get("detail").asText()).contains("not recoverable");
  }

  @Test
  void approving_a_run_that_waits_for_nothing_answers_409_with_the_reason() {
    UUID runId = submit(held);
    awaitHolding(runId);

    JsonNode conflict =
        assertProblem(http.post("/api/runs/" + runId + "/approve", ""), 409, "run-conflict");

    assertThat(conflict.get("detail").asText())
        .isEqualTo("Run " + runId + " is RUNNING and has no step waiting for approval");
    steps.release(runId);
    awaitStatus(runId, "SUCCEEDED");
  }

  @Test
  void approving_a_step_that_does_not_wait_answers_409() {
    UUID runId = submit(approval, "{\"orderId\": \"A-3\"}");
    awaitApprovalRequested(runId, "ask");

    JsonNode conflict =
        assertProblem(
            http.post("/api/runs/" + runId + "/approve", "{\"step\": \"finish\"}"),
            409,
            "run-conflict");

    assertThat(conflict.get("detail").asText()).contains("'finish'");
    http.post("/api/runs/" + runId + "/cancel", "");
  }

  @Test
  void cancelling_a_waiting_run_ends_it_and_cancelling_again_answers_409() {
    UUID runId = submit(approval, "{\"orderId\": \"A-4\"}");
    awaitApprovalRequested(runId, "ask");

    Reply reply = http.post("/api/runs/" + runId + "/cancel", "{\"by\": \"bob\"}");

    assertThat(reply.status()).as("%s", reply).isEqualTo(200);
    awaitStatus(runId, "CANCELLED");
    JsonNode conflict =
        assertProblem(http.post("/api/runs/" + runId + "/cancel", ""), 409, "run-conflict");
    assertThat(conflict.get("detail").asText())
        .isEqualTo(
            "Run "
                + runId
                + " is CANCELLED; only PENDING, RUNNING or WAITING runs can be cancelled");
  }

  @Test
  void cancelling_a_running_run_stops_its_step() {
    UUID runId = submit(held);
    awaitHolding(runId);

    Reply reply = http.post("/api/runs/" + runId + "/cancel", "");

    assertThat(reply.status()).as("%s", reply).isEqualTo(200);
    awaitStatus(runId, "CANCELLED");
  }

  @Test
  void resuming_a_failed_run_runs_its_failed_step_again_and_it_succeeds() {
    String flow = uniqueName("toggled");
    String switchName = uniqueName("switch");
    applyFlow(TestFlows.toggled(flow, switchName));
    UUID runId = submit(flow);
    JsonNode failed = awaitStatus(runId, "FAILED");
    assertThat(failed.get("recoverable").asBoolean()).isTrue();
    assertThat(failed.get("error").get("code").asText()).isEqualTo("switched_off");
    assertThat(stepNamed(failed, "flaky").get("error").get("message").asText()).contains("off");

    steps.switchOn(switchName);
    Reply reply = http.post("/api/runs/" + runId + "/resume", "{\"by\": \"ops\"}");

    assertThat(reply.status()).as("%s", reply).isEqualTo(200);
    JsonNode run = awaitStatus(runId, "SUCCEEDED");
    assertThat(stepNamed(run, "first").get("attempts").asInt()).isEqualTo(1);
    assertThat(stepNamed(run, "flaky").get("attempts").asInt()).isEqualTo(2);
    assertThat(run.get("ownership"))
        .extracting(c -> c.get("reason").asText())
        .containsExactly("SUBMIT", "RESUME");
  }

  @Test
  void resuming_a_running_run_answers_409_with_the_reason() {
    UUID runId = submit(held);
    awaitHolding(runId);

    JsonNode conflict =
        assertProblem(http.post("/api/runs/" + runId + "/resume", ""), 409, "run-conflict");

    assertThat(conflict.get("detail").asText())
        .isEqualTo("Run " + runId + " is RUNNING; only FAILED, recoverable runs can be resumed");
    steps.release(runId);
  }

  @Test
  void every_command_on_an_unknown_run_answers_404() {
    UUID unknown = UUID.randomUUID();
    for (String command : new String[] {"cancel", "resume", "approve", "reject"}) {
      JsonNode problem =
          assertProblem(
              http.post("/api/runs/" + unknown + "/" + command, ""), 404, "run-not-found");
      assertThat(problem.get("detail").asText()).isEqualTo("Run " + unknown + " not found");
    }
  }

  @Test
  void a_command_with_a_malformed_id_or_body_answers_400() {
    assertProblem(http.post("/api/runs/123/cancel", ""), 400, "invalid-request");
    UUID unknown = UUID.randomUUID();
    assertProblem(http.post("/api/runs/" + unknown + "/cancel", "{"), 400, "malformed-json");
    assertProblem(
        http.post("/api/runs/" + unknown + "/cancel", "{\"step\": \"x\"}"), 400, "invalid-request");
    assertProblem(
        http.post("/api/runs/" + unknown + "/approve", "{\"by\": 5}"), 400, "invalid-request");
  }

  @Test
  void retrying_a_step_in_back_off_now_runs_its_next_attempt_at_once() {
    String flow = uniqueName("backing-off");
    String switchName = uniqueName("switch");
    applyFlow(TestFlows.backingOff(flow, switchName));
    UUID runId = submit(flow);
    awaitStepStatus(runId, "flaky", "RETRY_WAIT");
    steps.switchOn(switchName);

    Reply reply =
        http.post(
            "/api/v1/runs/" + runId + "/steps/flaky/retry-now",
            "{\"reason\": \"the switch is on\"}");

    assertThat(reply.status()).as("%s", reply).isEqualTo(200);
    JsonNode run = awaitStatus(runId, "SUCCEEDED");
    assertThat(stepNamed(run, "flaky").get("attempts").asInt()).isEqualTo(2);
    assertThat(run.get("commands"))
        .anySatisfy(
            command -> {
              assertThat(command.get("command").asText()).isEqualTo("retry-now");
              assertThat(command.get("reason").asText()).isEqualTo("the switch is on");
            });
  }

  @Test
  void retrying_now_a_step_not_in_back_off_answers_409_and_an_unknown_step_404() {
    UUID runId = submit(held);
    awaitHolding(runId);

    JsonNode conflict =
        assertProblem(
            http.post("/api/v1/runs/" + runId + "/steps/work/retry-now", ""), 409, "run-conflict");
    assertThat(conflict.get("detail").asText())
        .isEqualTo(
            "Step 'work' of run "
                + runId
                + " is not started; only a step waiting to retry a failed attempt can be retried"
                + " now");
    JsonNode unknownStep =
        assertProblem(
            http.post("/api/v1/runs/" + runId + "/steps/nope/retry-now", ""),
            404,
            "step-not-found");
    assertThat(unknownStep.get("detail").asText())
        .isEqualTo("Run " + runId + " has no step 'nope'");
    assertProblem(
        http.post("/api/v1/runs/" + UUID.randomUUID() + "/steps/work/retry-now", ""),
        404,
        "run-not-found");
    assertProblem(
        http.post("/api/v1/runs/" + runId + "/steps/work/retry-now", "{"), 400, "malformed-json");
    assertProblem(
        http.post("/api/v1/runs/" + runId + "/steps/work/retry-now", "{\"step\": \"x\"}"),
        400,
        "invalid-request");
    assertProblem(http.post("/api/v1/runs/123/steps/work/retry-now", ""), 400, "invalid-request");
    steps.release(runId);
  }

  private void awaitHolding(UUID runId) {
    Awaitility.await()
        .atMost(TIMEOUT)
        .until(() -> steps.holding(runId) && status(runId).equals("RUNNING"));
  }
}

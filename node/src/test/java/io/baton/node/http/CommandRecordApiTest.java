package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.node.auth.ApiKeys;
import io.baton.node.auth.ApiTokens;
import io.baton.node.auth.Authenticator;
import io.baton.time.SystemScheduler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every command that changes a run is journaled with who gave it (the key's name), how they proved
 * it ({@code key}) and why, and shows on the run ({@code commands}) and in its journal.
 */
public class CommandRecordApiTest extends ApiTestBase {
  private final String adminToken = ApiTokens.generate();
  private final String operatorToken = ApiTokens.generate();
  private ApiCalls operator;

  @Override
  protected Authenticator authenticator() {
    try {
      Path file = Files.createTempFile("baton-keys", ".yaml");
      Files.writeString(
          file,
          "keys:\n"
              + "  - {name: release-admin, role: admin, hash: \""
              + ApiTokens.hash(adminToken)
              + "\"}\n"
              + "  - {name: ci-operator, role: operator, hash: \""
              + ApiTokens.hash(operatorToken)
              + "\"}\n");
      return ApiKeys.load(file, SystemScheduler.systemClock());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @BeforeAll
  void callWithKeys() {
    http = node.calls().withToken(adminToken);
    operator = node.calls().withToken(operatorToken);
  }

  @Test
  void submit_and_approve_are_on_the_record_with_who_how_and_why() {
    String flow = uniqueName("approval");
    applyFlow(TestFlows.approval(flow));
    UUID runId = submitAs(operator, flow);
    awaitApprovalRequested(runId, "ask");

    Reply approved =
        operator.post(
            "/api/runs/" + runId + "/approve",
            "{\"by\": \"mallory\", \"comment\": \"looks right\"}");
    assertThat(approved.status()).as("%s", approved).isEqualTo(200);
    JsonNode run = awaitStatus(runId, "SUCCEEDED");

    assertThat(commands(run))
        .containsExactly(
            "submit by ci-operator via key: ", "approve by ci-operator via key: looks right");
    assertThat(run.get("commands").get(0).get("at").asText()).isNotBlank();
    Reply journal = http.get("/api/runs/" + runId + "/journal");
    assertThat(journal.body()).contains("CommandApplied").doesNotContain("mallory");
  }

  @Test
  void cancel_is_on_the_record_with_its_reason() {
    String flow = uniqueName("approval");
    applyFlow(TestFlows.approval(flow));
    UUID runId = submitAs(operator, flow);
    awaitApprovalRequested(runId, "ask");

    Reply cancelled =
        operator.post("/api/runs/" + runId + "/cancel", "{\"reason\": \"order withdrawn\"}");
    assertThat(cancelled.status()).as("%s", cancelled).isEqualTo(200);
    JsonNode run = awaitStatus(runId, "CANCELLED");

    assertThat(commands(run)).contains("cancel by ci-operator via key: order withdrawn");
  }

  @Test
  void resume_is_on_the_record_with_its_reason() {
    String flow = uniqueName("toggled");
    String switchName = uniqueName("switch");
    applyFlow(TestFlows.toggled(flow, switchName));
    UUID runId = submitAs(operator, flow);
    awaitStatus(runId, "FAILED");
    steps.switchOn(switchName);

    Reply resumed = operator.post("/api/runs/" + runId + "/resume", "{\"reason\": \"fixed\"}");
    assertThat(resumed.status()).as("%s", resumed).isEqualTo(200);
    JsonNode run = awaitStatus(runId, "SUCCEEDED");

    assertThat(commands(run))
        .containsExactly("submit by ci-operator via key: ", "resume by ci-operator via key: fixed");
  }

  private static UUID submitAs(ApiCalls calls, String flow) {
    Reply reply =
        calls.post("/api/runs", "{\"flow\": \"" + flow + "\", \"input\": {\"orderId\": \"o-1\"}}");
    assertThat(reply.status()).as("%s", reply).isEqualTo(201);
    return UUID.fromString(reply.json().get("id").asText());
  }

  private static List<String> commands(JsonNode run) {
    List<String> lines = new ArrayList<>();
    for (JsonNode command : run.get("commands")) {
      lines.add(
          command.get("command").asText()
              + " by "
              + command.get("by").asText()
              + " via "
              + command.get("via").asText()
              + ": "
              + command.get("reason").asText());
    }
    return lines;
  }
}

package io.baton.node.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.node.http.ApiTestBase;
import io.baton.node.http.TestFlows;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The {@code baton} client commands, run in-process against a node's real HTTP API: every message
 * and exit code they promise.
 */
public class CliTest extends ApiTestBase {
  @TempDir Path dir;
  private String approval;
  private String held;

  @BeforeAll
  void applyFlows() {
    approval = uniqueName("approval");
    held = uniqueName("held");
    applyFlow(TestFlows.approval(approval));
    applyFlow(TestFlows.held(held));
  }

  /** Runs {@code baton ARGS --server <the node>}. */
  private CliResult baton(String... args) {
    List<String> withServer = new ArrayList<>(List.of(args));
    withServer.add("--server");
    withServer.add(node.uri().toString());
    return batonRaw(withServer.toArray(String[]::new));
  }

  private static CliResult batonRaw(String... args) {
    CommandLine cli = BatonCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args);
    return new CliResult(code, out.toString(), err.toString());
  }

  private UUID submitWithCli(String flow, String... options) {
    List<String> args = new ArrayList<>(List.of("submit", flow));
    args.addAll(List.of(options));
    CliResult result = baton(args.toArray(String[]::new));
    assertThat(result.exitCode()).as("%s", result).isZero();
    return UUID.fromString(result.out().trim());
  }

  @Test
  void emit_prints_the_runs_the_event_started_and_the_same_id_prints_the_same_runs() {
    String flow = uniqueName("on-ping");
    String type = uniqueName("ping");
    applyFlow(
        "name: "
            + flow
            + "\ntrigger: {event: "
            + type
            + "}\nsteps: [{name: a, capability: noop}]\n");

    CliResult first = baton("emit", type, "--data", "{\"n\": 1}", "--id", "cli-e1");
    CliResult again = baton("emit", type, "--data", "{\"n\": 1}", "--id", "cli-e1");
    CliResult unmatched = baton("emit", uniqueName("nobody"));
    CliResult badData = baton("emit", type, "--data", "{nope");

    assertThat(first.exitCode()).as("%s", first).isZero();
    UUID runId = UUID.fromString(first.out().trim());
    assertThat(again.out()).isEqualTo(first.out());
    assertThat(awaitStatus(runId, "SUCCEEDED").get("input").get("n").asInt()).isEqualTo(1);
    assertThat(unmatched.exitCode()).as("%s", unmatched).isZero();
    assertThat(unmatched.out()).isEmpty();
    assertThat(badData.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(badData.err()).contains("Invalid value for --data: not JSON");
  }

  @Test
  void flows_apply_prints_the_flow_and_its_short_hash() throws IOException {
    String name = uniqueName("applied");
    Path file = Files.writeString(dir.resolve("applied.yaml"), TestFlows.quick(name));

    CliResult result = baton("flows", "apply", file.toString());

    assertThat(result.exitCode()).as("%s", result).isZero();
    assertThat(result.out()).matches("Flow " + name + " applied \\(hash [0-9a-f]{12}\\)\\R");
    assertThat(result.err()).isEmpty();
  }

  @Test
  void flows_apply_of_an_invalid_flow_prints_each_problem_with_file_and_line_and_exits_1()
      throws IOException {
    Path file =
        Files.writeString(
            dir.resolve("broken.yaml"),
            "name: broken\nsteps:\n  - name: a\n    capability: nosuchthing\n");

    CliResult result = baton("flows", "apply", file.toString());

    assertThat(result.exitCode()).as("%s", result).isEqualTo(ExitCodes.ERROR);
    assertThat(result.out()).isEmpty();
    assertThat(result.err())
        .contains("The flow is invalid")
        .contains("  " + file + ":4:")
        .contains("steps[0].capability: ")
        .contains("nosuchthing");
  }

  @Test
  void flows_apply_of_a_missing_file_exits_1() {
    CliResult result = baton("flows", "apply", dir.resolve("absent.yaml").toString());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(result.err()).contains("No such file: ").contains("absent.yaml");
  }

  @Test
  void flows_list_shows_each_flow() {
    CliResult result = baton("flows", "list");

    assertThat(result.exitCode()).as("%s", result).isZero();
    assertThat(result.out()).startsWith("NAME").contains(approval).contains(held);
  }

  @Test
  void submit_prints_only_the_run_id_and_the_same_key_gives_the_same_run() {
    UUID first =
        submitWithCli(approval, "--input", "{\"orderId\": \"C-1\"}", "--idempotency-key", "cli-k1");
    UUID again = submitWithCli(approval, "--idempotency-key", "cli-k1");

    assertThat(again).isEqualTo(first);
    assertThat(run(first).get("input").get("orderId").asText()).isEqualTo("C-1");
    baton("cancel", first.toString());
  }

  @Test
  void submit_with_a_traceparent_journals_it_with_the_run_and_a_malformed_one_is_refused() {
    String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    UUID traced = submitWithCli(approval, "--traceparent", traceparent);

    JsonNode created = http.get("/api/v1/runs/" + traced + "/journal").json().get("entries").get(0);
    assertThat(created.get("event").get("type").asText()).isEqualTo("RunCreated");
    assertThat(created.get("event").get("traceparent").asText()).isEqualTo(traceparent);
    baton("cancel", traced.toString());

    CliResult refused = baton("submit", approval, "--traceparent", "00-nope-01");
    assertThat(refused.exitCode()).as("%s", refused).isNotZero();
    assertThat(refused.err()).contains("invalid traceparent");
  }

  @Test
  void submit_of_an_unknown_flow_exits_3_and_bad_input_json_exits_2() {
    CliResult unknown = baton("submit", "no-such-flow");
    assertThat(unknown.exitCode()).as("%s", unknown).isEqualTo(ExitCodes.NOT_FOUND);
    assertThat(unknown.err()).isEqualTo("Flow 'no-such-flow' not found" + System.lineSeparator());

    CliResult badInput = baton("submit", approval, "--input", "{nope");
    assertThat(badInput.exitCode()).as("%s", badInput).isEqualTo(ExitCodes.USAGE);
    assertThat(badInput.err()).contains("Invalid value for --input");
  }

  @Test
  void runs_lists_runs_filtered_by_status_and_flow() {
    UUID runId = submitWithCli(approval);
    awaitApprovalRequested(runId, "ask");

    CliResult result = baton("runs", "--status", "waiting", "--flow", approval, "--limit", "50");

    assertThat(result.exitCode()).as("%s", result).isZero();
    assertThat(result.out()).startsWith("ID").contains(runId.toString()).contains("WAITING");
    assertThat(baton("runs", "--flow", "nothing-like-this").out())
        .isEqualTo("No runs" + System.lineSeparator());
    baton("cancel", runId.toString());
  }

  @Test
  void runs_with_a_limit_the_server_refuses_prints_the_problem_and_exits_1() {
    CliResult result = baton("runs", "--limit", "0");

    assertThat(result.exitCode()).as("%s", result).isEqualTo(ExitCodes.ERROR);
    assertThat(result.err()).contains("limit must be a whole number from 1 to 1000");
  }

  @Test
  void runs_with_an_unknown_status_is_a_usage_error() {
    CliResult result = baton("runs", "--status", "DONE");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).contains("--status");
  }

  @Test
  void run_shows_a_summary_with_steps_and_the_api_json_with_json() {
    UUID runId = submitWithCli(approval, "--input", "{\"orderId\": \"C-2\"}");
    awaitApprovalRequested(runId, "ask");

    CliResult summary = baton("run", runId.toString());
    CliResult json = baton("run", runId.toString(), "--json");

    assertThat(summary.exitCode()).as("%s", summary).isZero();
    assertThat(summary.out())
        .startsWith("Run " + runId + "  " + approval + "  WAITING")
        .contains("input: {\"orderId\":\"C-2\"}")
        .containsPattern("prepare\\s+SUCCEEDED\\s+1")
        .containsPattern("ask\\s+WAITING\\s+\\d+\\s+waiting for approval")
        .containsPattern("finish\\s+PENDING\\s+0")
        .containsPattern(node.nodeId() + "\\s+SUBMIT");
    assertThat(json.exitCode()).isZero();
    assertThat(json.out()).contains("\"id\" : \"" + runId + "\"").contains("\"steps\" : [");
    baton("cancel", runId.toString());
  }

  @Test
  void run_of_an_unknown_id_exits_3_and_of_a_malformed_id_exits_2() {
    UUID unknown = UUID.randomUUID();

    CliResult result = baton("run", unknown.toString());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
    assertThat(result.err()).isEqualTo("Run " + unknown + " not found" + System.lineSeparator());
    assertThat(baton("run", "not-a-uuid").exitCode()).isEqualTo(ExitCodes.USAGE);
  }

  @Test
  void approve_prints_that_the_run_was_approved_and_it_succeeds() {
    UUID runId = submitWithCli(approval);
    awaitApprovalRequested(runId, "ask");

    CliResult result = baton("approve", runId.toString(), "--step", "ask", "--comment", "fine");

    assertThat(result.exitCode()).as("%s", result).isZero();
    assertThat(result.out()).isEqualTo("Run " + runId + " approved" + System.lineSeparator());
    awaitStatus(runId, "SUCCEEDED");
  }

  @Test
  void reject_prints_that_the_run_was_rejected_and_resuming_it_exits_4_with_the_reason() {
    UUID runId = submitWithCli(approval);
    awaitApprovalRequested(runId, "ask");

    CliResult rejected = baton("reject", runId.toString());
    awaitStatus(runId, "FAILED");
    CliResult resume = baton("resume", runId.toString());

    assertThat(rejected.out()).isEqualTo("Run " + runId + " rejected" + System.lineSeparator());
    assertThat(resume.exitCode()).as("%s", resume).isEqualTo(ExitCodes.CONFLICT);
    assertThat(resume.err())
        .isEqualTo(
            "Run "
                + runId
                + " is FAILED but not recoverable; only FAILED, recoverable runs can be resumed"
                + System.lineSeparator());
  }

  @Test
  void resume_of_a_failed_run_prints_that_it_was_resumed() {
    String flow = uniqueName("toggled");
    String switchName = uniqueName("switch");
    applyFlow(TestFlows.toggled(flow, switchName));
    UUID runId = submitWithCli(flow);
    awaitStatus(runId, "FAILED");
    steps.switchOn(switchName);

    CliResult result = baton("resume", runId.toString());

    assertThat(result.exitCode()).as("%s", result).isZero();
    assertThat(result.out()).isEqualTo("Run " + runId + " resumed" + System.lineSeparator());
    awaitStatus(runId, "SUCCEEDED");
  }

  @Test
  void retry_now_runs_a_step_in_back_off_at_once_and_prints_the_run_as_json() {
    String flow = uniqueName("backing-off");
    String switchName = uniqueName("switch");
    applyFlow(TestFlows.backingOff(flow, switchName));
    UUID runId = submitWithCli(flow);
    awaitStepStatus(runId, "flaky", "RETRY_WAIT");
    steps.switchOn(switchName);

    CliResult result =
        baton("retry-now", runId.toString(), "flaky", "--reason", "switch fixed", "-o", "json");

    assertThat(result.exitCode()).as("%s", result).isZero();
    assertThat(ApiResponse.parse(result.out()).get("id").asText()).isEqualTo(runId.toString());
    JsonNode run = awaitStatus(runId, "SUCCEEDED");
    assertThat(stepNamed(run, "flaky").get("attempts").asInt()).isEqualTo(2);
    JsonNode commands = run.get("commands");
    assertThat(commands.get(commands.size() - 1).get("command").asText()).isEqualTo("retry-now");
    assertThat(commands.get(commands.size() - 1).get("reason").asText()).isEqualTo("switch fixed");
  }

  @Test
  void retry_now_of_a_step_not_in_back_off_exits_4_and_of_an_unknown_step_3() {
    UUID runId = submitWithCli(held);
    await().atMost(TIMEOUT).until(() -> steps.holding(runId));

    CliResult running = baton("retry-now", runId.toString(), "work");
    CliResult unknown = baton("retry-now", runId.toString(), "nope");
    CliResult table = baton("retry-now", runId.toString(), "work", "-o", "table");

    assertThat(running.exitCode()).as("%s", running).isEqualTo(ExitCodes.CONFLICT);
    assertThat(running.err()).contains("only a step waiting to retry a failed attempt");
    assertThat(table.exitCode()).as("%s", table).isEqualTo(ExitCodes.CONFLICT);
    assertThat(unknown.exitCode()).as("%s", unknown).isEqualTo(ExitCodes.NOT_FOUND);
    assertThat(unknown.err())
        .isEqualTo("Run " + runId + " has no step 'nope'" + System.lineSeparator());
    assertThat(batonRaw("retry-now", runId.toString()).exitCode()).isEqualTo(ExitCodes.USAGE);
    baton("cancel", runId.toString());
  }

  @Test
  void discard_deletes_a_recoverable_failure_and_refuses_a_live_run_with_exit_4() {
    String flow = uniqueName("toggled");
    applyFlow(TestFlows.toggled(flow, uniqueName("switch")));
    UUID failed = submitWithCli(flow);
    awaitStatus(failed, "FAILED");
    UUID live = submitWithCli(held);
    await().atMost(TIMEOUT).until(() -> steps.holding(live));

    CliResult discarded = baton("discard", failed.toString(), "--reason", "bad input");
    CliResult refused = baton("discard", live.toString());

    assertThat(discarded.exitCode()).as("%s", discarded).isZero();
    assertThat(discarded.out()).isEqualTo("Run " + failed + " discarded" + System.lineSeparator());
    assertThat(http.get("/api/v1/runs/" + failed).status()).isEqualTo(404);
    assertThat(refused.exitCode()).as("%s", refused).isEqualTo(ExitCodes.CONFLICT);
    assertThat(refused.err())
        .contains("is RUNNING; only a finished or failed run can be discarded");
    baton("cancel", live.toString());
  }

  @Test
  void cancel_prints_that_the_run_was_cancelled_and_again_exits_4() {
    UUID runId = submitWithCli(held);
    await().atMost(TIMEOUT).until(() -> steps.holding(runId));

    CliResult first = baton("cancel", runId.toString());
    awaitStatus(runId, "CANCELLED");
    CliResult again = baton("cancel", runId.toString());

    assertThat(first.out()).isEqualTo("Run " + runId + " cancelled" + System.lineSeparator());
    assertThat(again.exitCode()).isEqualTo(ExitCodes.CONFLICT);
    assertThat(again.err()).contains("is CANCELLED; only PENDING, RUNNING or WAITING");
  }

  @Test
  void every_run_command_on_an_unknown_run_exits_3() {
    UUID unknown = UUID.randomUUID();
    for (String command : List.of("resume", "cancel", "approve", "reject", "discard")) {
      CliResult result = baton(command, unknown.toString());

      assertThat(result.exitCode()).as("%s %s", command, result).isEqualTo(ExitCodes.NOT_FOUND);
      assertThat(result.err()).isEqualTo("Run " + unknown + " not found" + System.lineSeparator());
    }
  }

  @Test
  void cluster_lists_this_node_marked_as_self() {
    CliResult result = baton("cluster");

    assertThat(result.exitCode()).as("%s", result).isZero();
    assertThat(result.out())
        .startsWith("NODE")
        .containsPattern(node.nodeId() + " \\*\\s+.*CONNECTED");
  }

  @Test
  void version_prints_the_client_and_the_servers_version() {
    CliResult result = baton("version");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .startsWith("client ")
        .contains("server test-version (node " + node.nodeId() + " at " + node.uri() + ")");
  }

  @Test
  void without_a_server_every_command_says_so_and_exits_5_but_version_still_prints_the_client()
      throws IOException {
    String closed = "http://127.0.0.1:" + freePort();

    for (String[] command :
        List.of(
            new String[] {"runs"},
            new String[] {"flows", "list"},
            new String[] {"resume", UUID.randomUUID().toString()},
            new String[] {"cluster"})) {
      List<String> args = new ArrayList<>(List.of(command));
      args.addAll(List.of("--server", closed));
      CliResult result = batonRaw(args.toArray(String[]::new));

      assertThat(result.exitCode()).as("%s", result).isEqualTo(ExitCodes.SERVER_NOT_RUNNING);
      assertThat(result.err())
          .isEqualTo("Server not running at " + closed + System.lineSeparator());
    }
    CliResult version = batonRaw("version", "--server", closed);
    assertThat(version.exitCode()).isZero();
    assertThat(version.out()).startsWith("client ").contains("server not reachable at " + closed);
  }

  @Test
  void bad_usage_exits_2() {
    assertThat(batonRaw().exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(batonRaw("frobnicate").exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(batonRaw("resume").exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(batonRaw("flows").exitCode()).isEqualTo(ExitCodes.USAGE);
    CliResult badServer = batonRaw("runs", "--server", "not a url");
    assertThat(badServer.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(badServer.err()).contains("is not a server URL");
  }

  @Test
  void help_names_the_server_default_and_its_environment_variable() {
    CliResult help = batonRaw("runs", "--help");

    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).contains("--server").contains("BATON_SERVER");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}

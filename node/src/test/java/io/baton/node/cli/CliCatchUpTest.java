package io.baton.node.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.node.cli.CliRunner.Running;
import io.baton.node.http.ApiTestBase;
import io.baton.node.http.TestFlows;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code baton journal}, {@code flows show}, {@code submit --wait}, {@code run --follow} and {@code
 * completion}, run in-process against a node's real HTTP API.
 */
public class CliCatchUpTest extends ApiTestBase {
  private String quick;
  private String toggled;
  private String approval;
  private String held;
  private CliRunner cli;

  @BeforeAll
  void applyFlows() {
    quick = uniqueName("quick");
    toggled = uniqueName("toggled");
    approval = uniqueName("approval");
    held = uniqueName("held");
    applyFlow(TestFlows.quick(quick));
    applyFlow(TestFlows.toggled(toggled, uniqueName("switch")));
    applyFlow(TestFlows.approval(approval));
    applyFlow(TestFlows.held(held));
    cli = new CliRunner(node.uri());
  }

  @AfterAll
  void stopCli() {
    cli.close();
  }

  private CliResult baton(String... args) {
    return cli.baton(args);
  }

  private UUID submitted(CliResult result) {
    assertThat(result.exitCode()).as("%s", result).isZero();
    return UUID.fromString(result.out().trim());
  }

  /** Every entry of the run's journal, as the API pages it. */
  private List<JsonNode> journal(UUID runId) {
    List<JsonNode> entries = new ArrayList<>();
    http.get("/api/v1/runs/" + runId + "/journal?limit=1000")
        .json()
        .get("entries")
        .forEach(entries::add);
    return entries;
  }

  private static List<Long> seqs(Iterable<JsonNode> entries) {
    List<Long> seqs = new ArrayList<>();
    entries.forEach(entry -> seqs.add(entry.get("seq").asLong()));
    return seqs;
  }

  private static CliResult exited(Running running) throws Exception {
    return running.result().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
  }

  @Test
  void submit_wait_exits_with_the_runs_final_status() {
    CliResult succeeded = baton("submit", quick, "--wait");
    assertThat(succeeded.exitCode()).as("%s", succeeded).isZero();
    assertThat(status(UUID.fromString(succeeded.out().trim()))).isEqualTo("SUCCEEDED");

    CliResult failed = baton("submit", toggled, "--wait");
    assertThat(failed.exitCode()).as("%s", failed).isEqualTo(ExitCodes.RUN_FAILED);
    assertThat(failed.err()).contains("FAILED");
  }

  @Test
  void submit_wait_with_json_prints_only_the_ended_run() {
    CliResult result = baton("submit", quick, "--input", "{\"value\": 7}", "--wait", "-o", "json");

    assertThat(result.exitCode()).as("%s", result).isZero();
    JsonNode run = ApiResponse.parse(result.out());
    assertThat(run.get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(run.get("input").get("value").asInt()).isEqualTo(7);
    assertThat(run(UUID.fromString(run.get("id").asText())).get("status").asText())
        .isEqualTo("SUCCEEDED");
  }

  @Test
  void journal_prints_every_entry_in_order() {
    UUID runId = submitted(baton("submit", quick, "--wait"));

    CliResult table = baton("journal", runId.toString());
    assertThat(table.exitCode()).as("%s", table).isZero();
    assertThat(table.out()).startsWith("SEQ").contains("RunCreated").contains("RunCompleted");

    CliResult json = baton("journal", runId.toString(), "--json");
    assertThat(json.out()).contains("\"seq\" : 1");
    CliResult unknown = baton("journal", UUID.randomUUID().toString());
    assertThat(unknown.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
    assertThat(unknown.err()).endsWith("not found" + System.lineSeparator());
  }

  @Test
  void journal_reads_page_after_page_and_prints_each_entry_once() {
    UUID runId = submitted(baton("submit", approval));
    awaitApprovalRequested(runId, "ask");
    http.post("/api/v1/runs/" + runId + "/approve", "{}");
    awaitStatus(runId, "SUCCEEDED");
    List<JsonNode> expected = journal(runId);
    assertThat(expected).hasSizeGreaterThan(4);

    CliResult json = baton("journal", runId.toString(), "--page-size", "2", "-o", "json");
    CliResult yaml = baton("journal", runId.toString(), "--page-size", "3", "-o", "yaml");
    CliResult table = baton("journal", runId.toString(), "--page-size", "2");

    assertThat(json.exitCode()).as("%s", json).isZero();
    JsonNode answer = ApiResponse.parse(json.out());
    assertThat(answer.get("runId").asText()).isEqualTo(runId.toString());
    assertThat(answer.get("entries")).containsExactlyElementsOf(expected);
    assertThat(Yaml.parse(yaml.out())).isEqualTo(answer);
    List<String> lines = table.out().lines().toList();
    assertThat(lines).hasSize(expected.size() + 1);
    assertThat(lines.get(0)).startsWith("SEQ");
    for (int i = 0; i < expected.size(); i++) {
      assertThat(lines.get(i + 1))
          .startsWith(expected.get(i).get("seq").asText() + " ")
          .contains(expected.get(i).get("event").get("type").asText());
    }
  }

  @Test
  void run_follow_prints_entries_as_they_are_written_and_exits_0_when_the_run_succeeds()
      throws Exception {
    UUID runId = submitted(baton("submit", approval));
    awaitApprovalRequested(runId, "ask");

    Running follow = cli.start("run", runId.toString(), "--follow");
    await().atMost(TIMEOUT).until(() -> follow.out().toString().contains("RunWaiting"));
    assertThat(follow.result()).as("still following a waiting run").isNotDone();
    assertThat(follow.out().toString()).doesNotContain("RunCompleted");
    http.post("/api/v1/runs/" + runId + "/approve", "{\"reason\": \"looks fine\"}");
    CliResult result = exited(follow);

    assertThat(result.exitCode()).as("%s", result).isZero();
    assertThat(result.err()).isEmpty();
    List<String> lines = result.out().lines().toList();
    assertThat(lines.get(0)).startsWith("SEQ");
    List<JsonNode> expected = journal(runId);
    assertThat(lines).hasSize(expected.size() + 1);
    assertThat(result.out())
        .containsPattern("CommandApplied\\s+approve by .*looks fine")
        .containsPattern("StepCompleted\\s+finish")
        .containsPattern("RunCompleted\\s+succeeded");
  }

  @Test
  void run_follow_with_json_prints_one_entry_per_line_and_exits_7_when_the_run_fails()
      throws Exception {
    UUID runId = submitted(baton("submit", approval));
    awaitApprovalRequested(runId, "ask");

    Running follow = cli.start("run", runId.toString(), "--follow", "-o", "json");
    await().atMost(TIMEOUT).until(() -> follow.out().toString().contains("RunWaiting"));
    http.post("/api/v1/runs/" + runId + "/reject", "{\"reason\": \"no stock\"}");
    CliResult result = exited(follow);

    assertThat(result.exitCode()).as("%s", result).isEqualTo(ExitCodes.RUN_FAILED);
    List<JsonNode> printed = result.out().lines().map(ApiResponse::parse).toList();
    assertThat(printed).allMatch(JsonNode::isObject);
    assertThat(seqs(printed)).isEqualTo(seqs(journal(runId)));
    assertThat(printed).containsExactlyElementsOf(journal(runId));
    assertThat(result.err()).startsWith("Run " + runId + " FAILED: ");
  }

  @Test
  void run_follow_prints_the_steps_a_run_takes_between_its_status_changes() throws Exception {
    // Retries this close together keep the run RUNNING: nothing changes its row, so the run stream
    // is silent, and only the journal's tail shows the attempts.
    String flow = uniqueName("retrying");
    String switchName = uniqueName("switch");
    applyFlow(
        "name: "
            + flow
            + "\nsteps:\n  - name: flaky\n    capability: toggle\n    params: {name: "
            + switchName
            + "}\n    retry: {maxAttempts: 1000, delay: 200ms, retryOn: [switched_off]}\n");
    UUID runId = submitted(baton("submit", flow));

    Running follow = cli.start("run", runId.toString(), "--follow", "-o", "json");
    await().atMost(TIMEOUT).until(() -> failedAttempts(follow) >= 1);
    long seen = failedAttempts(follow);
    await().atMost(TIMEOUT).until(() -> failedAttempts(follow) >= seen + 3);
    assertThat(follow.result()).isNotDone();
    assertThat(status(runId)).isEqualTo("RUNNING");
    steps.switchOn(switchName);
    CliResult result = exited(follow);

    assertThat(result.exitCode()).as("%s", result).isZero();
    assertThat(result.out().lines().map(ApiResponse::parse).toList())
        .containsExactlyElementsOf(journal(runId));
  }

  /** What bash completes at the end of {@code line}, with the script loaded as a user would. */
  private String completions(String script, String line) throws Exception {
    Path file = Files.writeString(Files.createTempFile("baton", ".bash"), script);
    String[] words = (line.endsWith(" ") ? line + "''" : line).split(" ");
    String shell =
        "source "
            + file
            + " 2>/dev/null; COMP_WORDS=("
            + String.join(" ", words)
            + "); COMP_CWORD="
            + (words.length - 1)
            + "; COMP_LINE='"
            + line
            + "'; COMP_POINT=${#COMP_LINE}; _complete_baton 2>/dev/null; echo \"${COMPREPLY[*]}\"";
    Process bash = new ProcessBuilder("bash", "-c", shell).redirectErrorStream(true).start();
    String printed = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(bash.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    Files.delete(file);
    return printed.strip();
  }

  private static long failedAttempts(Running running) {
    return running.out().toString().lines().filter(line -> line.contains("StepFailed")).count();
  }

  @Test
  void run_follow_exits_8_when_the_run_is_cancelled() throws Exception {
    UUID runId = submitted(baton("submit", held));
    await().atMost(TIMEOUT).until(() -> steps.holding(runId));

    Running follow = cli.start("run", runId.toString(), "-f", "-o", "yaml");
    await().atMost(TIMEOUT).until(() -> follow.out().toString().contains("RunClaimed"));
    baton("cancel", runId.toString(), "--reason", "not needed");
    CliResult result = exited(follow);

    assertThat(result.exitCode()).as("%s", result).isEqualTo(ExitCodes.RUN_CANCELLED);
    assertThat(Yaml.parseAll(result.out())).containsExactlyElementsOf(journal(runId));
    assertThat(result.err()).startsWith("Run " + runId + " CANCELLED");
  }

  @Test
  void run_follow_of_an_ended_run_prints_its_journal_and_exits_at_once() {
    UUID succeeded = submitted(baton("submit", quick, "--wait"));
    UUID failed = UUID.fromString(baton("submit", toggled, "--wait").out().trim());

    CliResult done = baton("run", succeeded.toString(), "--follow", "-o", "json");
    CliResult broken = baton("run", failed.toString(), "--follow");

    assertThat(done.exitCode()).as("%s", done).isZero();
    assertThat(done.out().lines().map(ApiResponse::parse).toList())
        .containsExactlyElementsOf(journal(succeeded));
    assertThat(broken.exitCode()).as("%s", broken).isEqualTo(ExitCodes.RUN_FAILED);
    assertThat(broken.out()).contains("StepFailed");
  }

  @Test
  void run_follow_of_a_subflow_prints_only_its_entries_and_ends_with_it() throws Exception {
    String parent = uniqueName("parent");
    applyFlow(
        "name: "
            + parent
            + "\nsteps:\n  - name: call\n    capability: flow\n    params:\n      flow: "
            + approval
            + "\n      input: {orderId: \"P-1\"}\n  - name: after\n    capability: noop\n"
            + "    needs: [call]\n");
    UUID root = submitted(baton("submit", parent));
    await().atMost(TIMEOUT).until(() -> run(root).path("children").size() == 1);
    UUID child = UUID.fromString(run(root).get("children").get(0).asText());
    awaitApprovalRequested(child, "ask");

    Running follow = cli.start("run", child.toString(), "--follow", "-o", "json");
    await().atMost(TIMEOUT).until(() -> follow.out().toString().contains("RunWaiting"));
    http.post("/api/v1/runs/" + child + "/approve", "{}");
    CliResult result = exited(follow);

    assertThat(result.exitCode()).as("%s", result).isZero();
    List<JsonNode> printed = result.out().lines().map(ApiResponse::parse).toList();
    assertThat(printed).allMatch(entry -> entry.get("runId").asText().equals(child.toString()));
    assertThat(printed).containsExactlyElementsOf(journal(child));
    awaitStatus(root, "SUCCEEDED");
  }

  @Test
  void run_follow_of_an_unknown_run_exits_3_with_a_message() {
    UUID unknown = UUID.randomUUID();

    CliResult result = baton("run", unknown.toString(), "--follow");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
    assertThat(result.out()).isEmpty();
    assertThat(result.err()).isEqualTo("Run " + unknown + " not found" + System.lineSeparator());
  }

  @Test
  void flows_show_prints_the_definition_as_yaml_or_the_api_json() {
    CliResult yaml = baton("flows", "show", approval);
    assertThat(yaml.exitCode()).as("%s", yaml).isZero();
    assertThat(yaml.out()).startsWith("# " + approval).contains("capability: \"approval\"");

    CliResult json = baton("flows", "show", approval, "-o", "json");
    assertThat(json.out()).contains("\"versions\"");
    assertThat(baton("flows", "show", "no-such-flow").exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
  }

  @Test
  void completion_prints_a_script_that_completes_commands_and_output_formats_in_bash()
      throws Exception {
    CliResult bash = CliRunner.raw("completion", "bash");
    assertThat(bash.exitCode()).as("%s", bash).isZero();
    assertThat(bash.out())
        .contains("complete")
        .contains("journal")
        .contains("submit")
        .contains("--follow")
        .contains("--output")
        .contains("(\"table\" \"json\" \"yaml\") # --output values");
    assertThat(CliRunner.raw("completion", "zsh").out()).contains("bashcompinit");
    assertThat(completions(bash.out(), "baton runs -o ")).isEqualTo("table json yaml");
    assertThat(completions(bash.out(), "baton ru")).isEqualTo("runs run");
    CliResult fish = CliRunner.raw("completion", "fish");
    assertThat(fish.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(fish.err()).contains("fish").doesNotContain("Exception");
  }
}

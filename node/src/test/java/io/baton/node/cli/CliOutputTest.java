package io.baton.node.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.node.http.ApiTestBase;
import io.baton.node.http.TestFlows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code -o json|yaml|table} on every client command, in-process against a node's real HTTP API:
 * json and yaml print what the versioned API answered, the same document in either format; table
 * stays the default; a format the CLI does not know is a usage error.
 */
public class CliOutputTest extends ApiTestBase {
  @TempDir Path dir;
  private String quick;
  private String approval;
  private String held;
  private CliRunner cli;

  @BeforeAll
  void applyFlows() {
    quick = uniqueName("quick");
    approval = uniqueName("approval");
    held = uniqueName("held");
    applyFlow(TestFlows.quick(quick));
    applyFlow(TestFlows.approval(approval));
    applyFlow(TestFlows.held(held));
    cli = new CliRunner(node.uri());
  }

  @AfterAll
  void stopCli() {
    cli.close();
  }

  /** {@code baton ARGS -o json}, parsed; asserts it exited 0 and printed nothing on stderr. */
  private JsonNode json(String... args) {
    return parsed(ApiResponse::parse, "json", args);
  }

  private JsonNode yaml(String... args) {
    return parsed(Yaml::parse, "yaml", args);
  }

  private JsonNode parsed(Function<String, JsonNode> parser, String format, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("-o");
    all.add(format);
    CliResult result = cli.baton(all.toArray(String[]::new));
    assertThat(result.exitCode()).as("%s", result).isZero();
    assertThat(result.err()).as("%s", result).isEmpty();
    if (format.equals("yaml")) {
      assertThat(result.out()).as("a YAML document, not JSON").startsWith("---\n");
    }
    JsonNode parsed = parser.apply(result.out());
    assertThat(parsed.isObject()).as("%s", result).isTrue();
    return parsed;
  }

  private JsonNode api(String path) {
    return http.get(path).json();
  }

  private UUID finishedRun() {
    JsonNode run = json("submit", quick, "--input", "{\"value\": 1}", "--wait");
    return UUID.fromString(run.get("id").asText());
  }

  @Test
  void every_client_command_offers_the_output_option() {
    List<String> without = new ArrayList<>();
    List<String> checked = new ArrayList<>();
    collect(BatonCli.commandLine(), without, checked);

    assertThat(without).as("commands that print a result but lack -o").isEmpty();
    assertThat(checked)
        .contains(
            "baton runs", "baton run", "baton journal", "baton flows show", "baton keys list");
  }

  private static void collect(CommandLine command, List<String> without, List<String> checked) {
    CommandSpec spec = command.getCommandSpec();
    if (command.getSubcommands().isEmpty()) {
      // completion prints a shell script, not a result
      if (!spec.name().equals("completion")) {
        OptionSpec output = spec.findOption("-o");
        if (output == null || spec.findOption("--output") == null) {
          without.add(spec.qualifiedName());
        }
        checked.add(spec.qualifiedName());
      }
      return;
    }
    command.getSubcommands().values().stream()
        .distinct()
        .forEach(sub -> collect(sub, without, checked));
  }

  @Test
  void run_and_runs_print_the_api_answer_as_json_and_the_same_document_as_yaml() {
    UUID runId = finishedRun();

    JsonNode run = json("run", runId.toString());
    assertThat(run).isEqualTo(api("/api/v1/runs/" + runId));
    assertThat(yaml("run", runId.toString())).isEqualTo(run);
    JsonNode runs = json("runs", "--flow", quick, "--status", "SUCCEEDED");
    assertThat(runs).isEqualTo(api("/api/v1/runs?flow=" + quick + "&status=SUCCEEDED"));
    assertThat(yaml("runs", "--flow", quick, "--status", "SUCCEEDED")).isEqualTo(runs);
  }

  @Test
  void runs_pages_with_the_answers_cursor() {
    String flow = uniqueName("paged");
    applyFlow(TestFlows.quick(flow));
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ids.add(json("submit", flow, "--wait").get("id").asText());
    }

    JsonNode first = json("runs", "--flow", flow, "--limit", "2");
    JsonNode second =
        json("runs", "--flow", flow, "--limit", "2", "--cursor", first.get("next").asText());
    CliResult table = cli.baton("runs", "--flow", flow, "--limit", "2");

    List<String> listed = new ArrayList<>();
    first.get("runs").forEach(run -> listed.add(run.get("id").asText()));
    second.get("runs").forEach(run -> listed.add(run.get("id").asText()));
    assertThat(listed).hasSize(3).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(table.out()).contains("More: --cursor " + first.get("next").asText());
  }

  @Test
  void flow_commands_print_the_api_answer() throws IOException {
    String name = uniqueName("applied");
    Path file = Files.writeString(dir.resolve("applied.yaml"), TestFlows.quick(name));

    JsonNode applied = json("flows", "apply", file.toString());
    JsonNode shown = json("flows", "show", name);
    JsonNode listed = json("flows", "list");

    assertThat(applied.get("name").asText()).isEqualTo(name);
    assertThat(shown).isEqualTo(api("/api/v1/flows/" + name));
    assertThat(shown.get("hash")).isEqualTo(applied.get("hash"));
    assertThat(yaml("flows", "show", name)).isEqualTo(shown);
    assertThat(listed).isEqualTo(api("/api/v1/flows"));
  }

  @Test
  void submit_emit_and_the_run_commands_print_the_api_answer() {
    JsonNode submitted = json("submit", approval, "--input", "{\"orderId\": \"J-1\"}");
    UUID runId = UUID.fromString(submitted.get("id").asText());
    assertThat(submitted.get("flow").asText()).isEqualTo(approval);
    awaitApprovalRequested(runId, "ask");

    JsonNode approved = json("approve", runId.toString(), "--reason", "in stock");
    assertThat(approved.get("id").asText()).isEqualTo(runId.toString());
    awaitStatus(runId, "SUCCEEDED");
    JsonNode discarded = yaml("discard", runId.toString());
    assertThat(discarded.get("id").asText()).isEqualTo(runId.toString());
    assertThat(discarded.get("discarded").asBoolean()).isTrue();

    UUID holding = UUID.fromString(json("submit", held).get("id").asText());
    JsonNode cancelled = json("cancel", holding.toString(), "--reason", "test over");
    assertThat(cancelled.get("id").asText()).isEqualTo(holding.toString());
    JsonNode commands = awaitStatus(holding, "CANCELLED").get("commands");
    assertThat(commands.get(commands.size() - 1).get("reason").asText()).isEqualTo("test over");

    String flow = uniqueName("on-ping");
    String type = uniqueName("ping");
    applyFlow(
        "name: "
            + flow
            + "\ntrigger: {event: "
            + type
            + "}\nsteps: [{name: a, capability: noop}]\n");
    JsonNode emitted = json("emit", type, "--id", uniqueName("evt"));
    assertThat(emitted.get("runs")).hasSize(1);
    awaitStatus(UUID.fromString(emitted.get("runs").get(0).get("runId").asText()), "SUCCEEDED");
  }

  @Test
  void cluster_and_version_print_the_api_answer() {
    JsonNode cluster = json("cluster");
    JsonNode version = json("version");

    assertThat(cluster.get("nodes").get(0).get("id").asText()).isEqualTo(node.nodeId());
    List<String> fields = new ArrayList<>();
    cluster.get("nodes").get(0).fieldNames().forEachRemaining(fields::add);
    List<String> apiFields = new ArrayList<>();
    api("/api/v1/cluster").get("nodes").get(0).fieldNames().forEachRemaining(apiFields::add);
    assertThat(fields).isEqualTo(apiFields);
    assertThat(version.get("client").asText()).isNotBlank();
    assertThat(version.get("server")).isEqualTo(api("/api/v1/version"));
    assertThat(yaml("version")).isEqualTo(version);
  }

  @Test
  void table_is_the_default() {
    UUID runId = finishedRun();

    CliResult plain = cli.baton("run", runId.toString());
    CliResult table = cli.baton("run", runId.toString(), "-o", "table");

    assertThat(plain.out()).startsWith("Run " + runId).isEqualTo(table.out());
  }

  @Test
  void an_unknown_format_is_a_usage_error_that_names_the_formats() {
    int runsBefore = runsOf(quick);
    for (String[] command :
        List.of(
            new String[] {"runs"},
            new String[] {"run", UUID.randomUUID().toString()},
            new String[] {"journal", UUID.randomUUID().toString()},
            new String[] {"submit", quick},
            new String[] {"flows", "list"})) {
      List<String> args = new ArrayList<>(List.of(command));
      args.addAll(List.of("-o", "xml"));

      CliResult result = cli.baton(args.toArray(String[]::new));

      assertThat(result.exitCode()).as("%s", result).isEqualTo(ExitCodes.USAGE);
      assertThat(result.err())
          .contains("'xml' is not an output format; use table, json, yaml")
          .doesNotContain("Exception")
          .doesNotContain("\tat ");
      assertThat(result.out()).isEmpty();
    }
    assertThat(runsOf(quick)).as("submit -o xml started nothing").isEqualTo(runsBefore);
  }

  private int runsOf(String flow) {
    return api("/api/v1/runs?limit=1000&flow=" + flow).get("runs").size();
  }

  @Test
  void a_failure_with_json_prints_nothing_on_stdout_and_the_message_on_stderr() {
    UUID unknown = UUID.randomUUID();

    CliResult result = cli.baton("run", unknown.toString(), "-o", "json");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
    assertThat(result.out()).isEmpty();
    assertThat(result.err()).isEqualTo("Run " + unknown + " not found" + System.lineSeparator());
  }
}

package io.baton.node.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.node.http.ApiTestBase;
import io.baton.node.http.TestFlows;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code baton journal}, {@code flows show}, {@code submit --wait} and {@code completion}. */
class CliCatchUpTest extends ApiTestBase {
  private String quick;
  private String toggled;
  private String approval;

  @BeforeAll
  void applyFlows() {
    quick = uniqueName("quick");
    toggled = uniqueName("toggled");
    approval = uniqueName("approval");
    applyFlow(TestFlows.quick(quick));
    applyFlow(TestFlows.toggled(toggled, uniqueName("switch")));
    applyFlow(TestFlows.approval(approval));
  }

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
  void journal_prints_every_entry_in_order() {
    UUID runId = UUID.fromString(baton("submit", quick, "--wait").out().trim());

    CliResult table = baton("journal", runId.toString());
    assertThat(table.exitCode()).as("%s", table).isZero();
    assertThat(table.out()).startsWith("SEQ").contains("RunCreated").contains("RunCompleted");

    CliResult json = baton("journal", runId.toString(), "--json");
    assertThat(json.out()).contains("\"seq\" : 1");
    assertThat(baton("journal", UUID.randomUUID().toString()).exitCode())
        .isEqualTo(ExitCodes.NOT_FOUND);
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
  void completion_prints_a_script_that_knows_the_commands() {
    CliResult bash = batonRaw("completion", "bash");
    assertThat(bash.exitCode()).as("%s", bash).isZero();
    assertThat(bash.out()).contains("complete").contains("journal").contains("submit");
    assertThat(batonRaw("completion", "zsh").out()).startsWith("autoload -U +X compinit");
  }
}

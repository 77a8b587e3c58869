package io.baton.node.process;

import static io.baton.node.process.ProcessTestSupport.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The real launcher against a real node process: each message and exit code of the CLI. */
class CliProcessIT {
  private static Path dir;
  private static String api;
  private static Map<String, String> env;
  private static BatonProcess node;

  @BeforeAll
  static void startNode() throws Exception {
    dir =
        ProcessTestSupport.workDir(
            Map.of(
                "ask.yaml",
                    "name: ask\nsteps:\n  - name: ok\n    capability: approval\n    params: {prompt: \"go?\"}\n",
                "hello.yaml",
                    "name: hello\nsteps:\n  - name: hi\n    capability: noop\n    params: {to: \"{{ input.name }}\"}\n"));
    int port = ProcessTestSupport.freePort();
    api = "http://127.0.0.1:" + port;
    env = ProcessTestSupport.cleanEnv();
    env.put("BATON_SERVER", api);
    node =
        BatonProcess.start(dir, env, "dev", "--http-port", String.valueOf(port))
            .awaitReady(api, Duration.ofMinutes(3));
  }

  @AfterAll
  static void stopNode() throws Exception {
    node.terminate();
    node.awaitExit(Duration.ofSeconds(60));
    node.close();
  }

  private static BatonProcess.Result baton(String... args) throws Exception {
    return BatonProcess.run(dir, env, args);
  }

  private static String submit(String flow, String input) throws Exception {
    BatonProcess.Result submitted = baton("submit", flow, "--input", input);
    assertThat(submitted.exitCode()).as(submitted.output()).isZero();
    String runId = submitted.output().trim();
    UUID.fromString(runId);
    return runId;
  }

  private static void awaitStatus(String runId, String status) {
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> get(api + "/api/runs/" + runId).path("status").asText().equals(status));
  }

  @Test
  void submit_prints_the_run_id_and_run_shows_it() throws Exception {
    String runId = submit("hello", "{\"name\": \"Ada\"}");
    awaitStatus(runId, "SUCCEEDED");
    BatonProcess.Result shown = baton("run", runId);
    assertThat(shown.exitCode()).isZero();
    assertThat(shown.output()).contains(runId).contains("SUCCEEDED").contains("hi");
    BatonProcess.Result json = baton("run", runId, "--json");
    assertThat(json.output()).contains("\"status\"").contains("\"SUCCEEDED\"");
  }

  @Test
  void an_unknown_run_is_not_found_with_exit_code_3() throws Exception {
    String unknown = UUID.randomUUID().toString();
    BatonProcess.Result result = baton("resume", unknown);
    assertThat(result.exitCode()).isEqualTo(3);
    assertThat(result.output()).contains("Run " + unknown + " not found");
  }

  @Test
  void a_conflict_prints_the_servers_reason_with_exit_code_4() throws Exception {
    String runId = submit("hello", "{\"name\": \"Bo\"}");
    awaitStatus(runId, "SUCCEEDED");
    BatonProcess.Result result = baton("resume", runId);
    assertThat(result.exitCode()).isEqualTo(4);
    assertThat(result.output()).contains("SUCCEEDED").contains("resumed");
    assertThat(baton("cancel", runId).exitCode()).isEqualTo(4);
  }

  @Test
  void approving_and_rejecting_print_what_happened() throws Exception {
    String approved = submit("ask", "{}");
    awaitStatus(approved, "WAITING");
    BatonProcess.Result approval = baton("approve", approved, "--comment", "fine");
    assertThat(approval.exitCode()).as(approval.output()).isZero();
    assertThat(approval.output()).contains("Run " + approved + " approved");
    awaitStatus(approved, "SUCCEEDED");

    String rejected = submit("ask", "{}");
    awaitStatus(rejected, "WAITING");
    BatonProcess.Result rejection = baton("reject", rejected);
    assertThat(rejection.exitCode()).isZero();
    assertThat(rejection.output()).contains("Run " + rejected + " rejected");
    awaitStatus(rejected, "FAILED");
  }

  @Test
  void cancelling_a_waiting_run_prints_that_it_was_cancelled() throws Exception {
    String runId = submit("ask", "{}");
    awaitStatus(runId, "WAITING");
    BatonProcess.Result result = baton("cancel", runId);
    assertThat(result.exitCode()).isZero();
    assertThat(result.output()).contains("Run " + runId + " cancelled");
  }

  @Test
  void flows_apply_and_list_and_a_bad_flow_names_its_line_and_field() throws Exception {
    Path good = dir.resolve("extra.yaml");
    Files.writeString(good, "name: extra\nsteps:\n  - name: one\n    capability: noop\n");
    BatonProcess.Result applied = baton("flows", "apply", good.toString());
    assertThat(applied.exitCode()).as(applied.output()).isZero();
    assertThat(applied.output()).contains("extra");
    assertThat(baton("flows", "list").output()).contains("extra").contains("hello");

    Path bad = dir.resolve("bad.yaml");
    Files.writeString(bad, "name: bad\nsteps:\n  - name: one\n    capability: teleport\n");
    BatonProcess.Result refused = baton("flows", "apply", bad.toString());
    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.output())
        .contains(":4:")
        .contains("steps[0].capability")
        .contains("teleport");
  }

  @Test
  void runs_and_cluster_list_what_the_node_holds() throws Exception {
    String runId = submit("ask", "{}");
    awaitStatus(runId, "WAITING");
    assertThat(baton("runs", "--status", "WAITING").output()).contains(runId);
    BatonProcess.Result cluster = baton("cluster");
    assertThat(cluster.exitCode()).isZero();
    assertThat(cluster.output()).contains("dev");
    assertThat(baton("version").output()).contains("server");
  }

  @Test
  void submit_wait_and_run_follow_exit_with_the_runs_end_and_json_is_for_scripts()
      throws Exception {
    BatonProcess.Result waited =
        baton("submit", "hello", "--input", "{\"name\": \"Cy\"}", "--wait", "-o", "json");
    assertThat(waited.exitCode()).as(waited.output()).isZero();
    assertThat(waited.output()).contains("\"status\" : \"SUCCEEDED\"");

    String runId = submit("ask", "{}");
    awaitStatus(runId, "WAITING");
    try (BatonProcess follow = BatonProcess.start(dir, env, "run", runId, "--follow")) {
      await().atMost(Duration.ofSeconds(60)).until(() -> follow.output().contains("RunWaiting"));
      assertThat(follow.isAlive()).as(follow.output()).isTrue();
      assertThat(baton("reject", runId, "--reason", "no stock").exitCode()).isZero();
      assertThat(follow.awaitExit(Duration.ofSeconds(60))).as(follow.output()).isEqualTo(7);
      assertThat(follow.output())
          .contains("reject by")
          .contains("RunCompleted")
          .contains("Run " + runId + " FAILED");
    }

    BatonProcess.Result badFormat = baton("runs", "-o", "xml");
    assertThat(badFormat.exitCode()).isEqualTo(2);
    assertThat(badFormat.output())
        .contains("'xml' is not an output format; use table, json, yaml")
        .doesNotContain("Exception");
  }

  @Test
  void no_server_exits_5_and_bad_usage_exits_2() throws Exception {
    int closed = ProcessTestSupport.freePort();
    BatonProcess.Result noServer = baton("runs", "--server", "http://127.0.0.1:" + closed);
    assertThat(noServer.exitCode()).isEqualTo(5);
    assertThat(noServer.output()).contains("Server not running at http://127.0.0.1:" + closed);
    assertThat(baton("submit").exitCode()).isEqualTo(2);
    assertThat(baton("no-such-command").exitCode()).isEqualTo(2);
  }
}

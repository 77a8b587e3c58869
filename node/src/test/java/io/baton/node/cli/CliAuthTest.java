package io.baton.node.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.node.auth.ApiKeys;
import io.baton.node.auth.ApiTokens;
import io.baton.node.auth.Authenticator;
import io.baton.node.http.ApiTestBase;
import io.baton.node.http.TestFlows;
import io.baton.time.SystemScheduler;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code baton keys create} makes the keys a node's keys file holds; client commands send them with
 * {@code --token}, and a refusal exits 9 with the server's reason.
 */
public class CliAuthTest extends ApiTestBase {
  private static final Pattern TOKEN = Pattern.compile("token: (bk_[A-Za-z0-9_-]{43})");

  private String operatorToken;
  private final String adminToken = ApiTokens.generate();
  private String createOutput;
  private final List<ExecutorService> executors = new ArrayList<>();

  @Override
  protected Authenticator authenticator() {
    CliResult created =
        batonRaw(
            "keys",
            "create",
            "--file-entry",
            "--name",
            "ci",
            "--role",
            "operator",
            "--expires",
            "90d");
    assertThat(created.exitCode()).as("%s", created).isZero();
    createOutput = created.out();
    Matcher token = TOKEN.matcher(createOutput);
    assertThat(token.find()).as(createOutput).isTrue();
    operatorToken = token.group(1);
    String entry = createOutput.substring(createOutput.indexOf("  - name:"));
    try {
      Path file = Files.createTempFile("baton-keys", ".yaml");
      Files.writeString(
          file,
          "keys:\n"
              + entry
              + "  - {name: root, role: admin, hash: \""
              + ApiTokens.hash(adminToken)
              + "\"}\n");
      return ApiKeys.load(file, SystemScheduler.systemClock());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void keys_create_prints_the_token_once_and_an_entry_with_only_its_hash() {
    String entry = createOutput.substring(createOutput.indexOf("  - name:"));
    assertThat(entry)
        .contains("name: ci")
        .contains("role: operator")
        .contains("hash: " + ApiTokens.hash(operatorToken))
        .containsPattern("expires: \\d{4}-\\d\\d-\\d\\dT")
        .doesNotContain(operatorToken);
  }

  @Test
  void a_client_command_without_a_token_exits_7_and_says_how_to_send_one() {
    CliResult result = baton(null, "runs");
    assertThat(result.exitCode()).as("%s", result).isEqualTo(ExitCodes.DENIED);
    assertThat(result.err()).contains("Not authenticated").contains("BATON_TOKEN");
  }

  @Test
  void a_client_command_with_a_token_acts_as_its_key() {
    assertThat(baton(operatorToken, "runs").exitCode()).isZero();
  }

  @Test
  void an_operator_may_not_apply_flows() throws IOException {
    Path flow = Files.createTempFile("flow", ".yaml");
    Files.writeString(flow, TestFlows.quick(uniqueName("refused")));
    CliResult result = baton(operatorToken, "flows", "apply", flow.toString());
    assertThat(result.exitCode()).as("%s", result).isEqualTo(ExitCodes.DENIED);
    assertThat(result.err()).contains("Not allowed").contains("flows.apply");
  }

  @Test
  void keys_are_created_listed_and_revoked_through_a_node() {
    CliResult created =
        baton(
            adminToken,
            "keys",
            "create",
            "--name",
            "ci-billing",
            "--role",
            "operator",
            "--flows",
            "billing-*",
            "--expires",
            "90d",
            "--reason",
            "billing pipeline");
    assertThat(created.exitCode()).as("%s", created).isZero();
    Matcher token = TOKEN.matcher(created.out());
    assertThat(token.find()).as(created.out()).isTrue();
    Matcher id = Pattern.compile("id: (key_[0-9a-f]{16})").matcher(created.out());
    assertThat(id.find()).as(created.out()).isTrue();
    assertThat(created.out()).contains("flows: billing-*").containsPattern("expires: \\d{4}-");
    assertThat(baton(token.group(1), "runs", "--flow", "billing-close").exitCode()).isZero();

    CliResult listed = baton(adminToken, "keys", "list");
    assertThat(listed.exitCode()).as("%s", listed).isZero();
    assertThat(listed.out())
        .contains(id.group(1))
        .contains("ci-billing")
        .contains("billing-*")
        .contains("active")
        .contains("root")
        .doesNotContain(token.group(1));

    CliResult revoked = baton(adminToken, "keys", "revoke", id.group(1), "--reason", "rotated");
    assertThat(revoked.exitCode()).as("%s", revoked).isZero();
    assertThat(revoked.out()).contains("revoked");
    CliResult refused = baton(token.group(1), "runs", "--flow", "billing-close");
    assertThat(refused.exitCode()).isEqualTo(ExitCodes.DENIED);
    assertThat(refused.err()).contains("revoked");
    assertThat(baton(adminToken, "keys", "list").out()).contains("revoked");
    assertThat(baton(adminToken, "keys", "revoke", "key_nope").exitCode())
        .isEqualTo(ExitCodes.NOT_FOUND);
  }

  @Test
  void keys_commands_print_the_api_answer_with_json_or_yaml() {
    CliResult created =
        baton(adminToken, "keys", "create", "--name", "ci-json", "--role", "viewer", "-o", "json");
    assertThat(created.exitCode()).as("%s", created).isZero();
    JsonNode key = ApiResponse.parse(created.out());
    assertThat(key.get("token").asText()).startsWith("bk_");
    String id = key.get("id").asText();

    CliResult listed = baton(adminToken, "keys", "list", "-o", "json");
    assertThat(ApiResponse.parse(listed.out()).get("keys"))
        .anySatisfy(listedKey -> assertThat(listedKey.get("id").asText()).isEqualTo(id));
    assertThat(listed.out()).doesNotContain(key.get("token").asText());
    CliResult revoked = baton(adminToken, "keys", "revoke", id, "-o", "yaml");
    assertThat(Yaml.parse(revoked.out()).get("name").asText()).isEqualTo("ci-json");

    CliResult offline =
        batonRaw("keys", "create", "--file-entry", "--name", "x", "--role", "viewer", "-o", "json");
    JsonNode made = ApiResponse.parse(offline.out());
    assertThat(made.get("entry").get("hash").asText())
        .isEqualTo(ApiTokens.hash(made.get("token").asText()));
    assertThat(made.get("entry").get("role").asText()).isEqualTo("viewer");
  }

  /**
   * A key limited to {@code billing-*} follows a run of its flow to its end: the follower reads the
   * run, its journal and the cluster-wide stream of its tree, each of which the key may read.
   */
  @Test
  void a_key_limited_to_flow_patterns_follows_a_live_run_of_its_flows_to_its_end()
      throws Exception {
    String flow = "billing-" + uniqueName("follow");
    Path file = Files.createTempFile("flow", ".yaml");
    Files.writeString(file, TestFlows.approval(flow));
    assertThat(baton(adminToken, "flows", "apply", file.toString()).exitCode()).isZero();
    CliResult created =
        baton(
            adminToken,
            "keys",
            "create",
            "--name",
            "billing-ops",
            "--role",
            "operator",
            "--flows",
            "billing-*",
            "-o",
            "json");
    String limited = ApiResponse.parse(created.out()).get("token").asText();
    CliResult submitted = baton(limited, "submit", flow, "-o", "json");
    assertThat(submitted.exitCode()).as("%s", submitted).isZero();
    String runId = ApiResponse.parse(submitted.out()).get("id").asText();

    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CompletableFuture<Integer> following =
        CompletableFuture.supplyAsync(
            () -> execute(out, err, withServer(limited, "run", runId, "--follow")), following());
    // The follower printed the journal it read before it opens the stream: cancel only then, so
    // that the end reaches it through the stream (a refused stream has ended it by now).
    await().atMost(Duration.ofSeconds(30)).until(() -> out.toString().contains("RunCreated"));
    assertThat(baton(limited, "cancel", runId).exitCode()).isZero();

    int exit = following.get(30, TimeUnit.SECONDS);
    assertThat(exit).as("out: %s%nerr: %s", out, err).isEqualTo(ExitCodes.RUN_CANCELLED);
    assertThat(err.toString()).doesNotContain("Not allowed").doesNotContain("Exception");
    CliResult ended = baton(limited, "run", runId, "--follow");
    assertThat(ended.exitCode()).as("%s", ended).isEqualTo(ExitCodes.RUN_CANCELLED);
  }

  @Test
  void a_key_limited_to_flow_patterns_may_not_stream_another_flow_and_the_refusal_says_so() {
    CliResult created =
        baton(
            adminToken,
            "keys",
            "create",
            "--name",
            "billing-watch",
            "--role",
            "viewer",
            "--flows",
            "billing-*",
            "-o",
            "json");
    String limited = ApiResponse.parse(created.out()).get("token").asText();
    BatonClient client = new BatonClient(node.uri(), limited, null);
    assertThatThrownBy(() -> client.events("/api/v1/stream/runs?flow=payroll-close", null).close())
        .isInstanceOfSatisfying(
            CommandFailedException.class,
            refused -> assertThat(refused.exitCode()).isEqualTo(ExitCodes.DENIED))
        .hasMessageContaining("payroll-close");
  }

  /** Unfiltered, a limited key's stream carries the runs of its flows and no others. */
  @Test
  void a_key_limited_to_flow_patterns_streams_only_the_runs_of_its_flows() throws IOException {
    String other = "payroll-" + uniqueName("stream");
    String own = "billing-" + uniqueName("stream");
    for (String flow : List.of(other, own)) {
      Path file = Files.createTempFile("flow", ".yaml");
      Files.writeString(file, TestFlows.approval(flow));
      assertThat(baton(adminToken, "flows", "apply", file.toString()).exitCode()).isZero();
    }
    CliResult created =
        baton(
            adminToken,
            "keys",
            "create",
            "--name",
            "billing-stream",
            "--role",
            "viewer",
            "--flows",
            "billing-*",
            "-o",
            "json");
    String limited = ApiResponse.parse(created.out()).get("token").asText();
    List<String> flows = new ArrayList<>();
    try (ServerEvents events =
        new BatonClient(node.uri(), limited, null).events("/api/v1/stream/runs", null)) {
      assertThat(baton(adminToken, "submit", other).exitCode()).isZero();
      assertThat(baton(adminToken, "submit", own).exitCode()).isZero();
      Instant deadline = Instant.now().plusSeconds(30);
      while (!flows.contains(own) && Instant.now().isBefore(deadline)) {
        ServerEvents.ServerEvent event = events.next(Duration.ofSeconds(1));
        if (event != null
            && event.kind() == ServerEvents.Kind.EVENT
            && "run".equals(event.name())) {
          flows.add(ApiResponse.parse(event.data()).path("flow").asText());
        }
      }
    }
    assertThat(flows).contains(own).doesNotContain(other);
  }

  @Test
  void only_an_admin_creates_keys_and_the_refusal_says_so() {
    CliResult refused = baton(operatorToken, "keys", "create", "--name", "x", "--role", "viewer");
    assertThat(refused.exitCode()).isEqualTo(ExitCodes.DENIED);
    assertThat(refused.err()).contains("permission admin");
  }

  @Test
  void an_unknown_role_is_a_usage_error_that_lists_the_roles() {
    CliResult result = batonRaw("keys", "create", "--name", "x", "--role", "boss");
    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).contains("viewer, operator, developer, admin");
  }

  private CliResult baton(String token, String... args) {
    return batonRaw(withServer(token, args));
  }

  private String[] withServer(String token, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--server");
    all.add(node.uri().toString());
    if (token != null) {
      all.add("--token");
      all.add(token);
    }
    return all.toArray(String[]::new);
  }

  private static CliResult batonRaw(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = execute(out, err, args);
    return new CliResult(code, out.toString(), err.toString());
  }

  /** Runs the CLI; what it prints can be read from {@code out} and {@code err} meanwhile. */
  private static int execute(StringWriter out, StringWriter err, String... args) {
    CommandLine cli = BatonCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  private ExecutorService following() {
    ExecutorService executor = Executors.newSingleThreadExecutor();
    executors.add(executor);
    return executor;
  }

  @AfterEach
  void stopFollowers() {
    executors.forEach(ExecutorService::shutdownNow);
  }
}

package io.baton.node.cli;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

  @Test
  void following_a_live_run_needs_a_key_that_may_read_every_flow_and_the_refusal_says_so()
      throws IOException {
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

    CliResult refused = baton(limited, "run", runId, "--follow");
    baton(limited, "cancel", runId);
    CliResult ended = baton(limited, "run", runId, "--follow");

    assertThat(refused.exitCode()).as("%s", refused).isEqualTo(ExitCodes.DENIED);
    assertThat(refused.err())
        .contains("Not allowed")
        .contains("spans every flow")
        .doesNotContain("Exception");
    assertThat(ended.exitCode())
        .as("an ended run needs no stream: %s", ended)
        .isEqualTo(ExitCodes.RUN_CANCELLED);
    assertThat(ended.out()).contains("RunCreated");
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
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--server");
    all.add(node.uri().toString());
    if (token != null) {
      all.add("--token");
      all.add(token);
    }
    return batonRaw(all.toArray(String[]::new));
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
}

package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.node.auth.ApiTokens;
import io.baton.node.auth.KeyAdministration;
import io.baton.node.auth.Role;
import io.baton.time.Durations;
import io.baton.time.SystemScheduler;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code baton keys create --name N --role R [--flows P,...] [--expires 90d] [--reason TEXT]}: asks
 * a node to create the key (an admin's call) and prints its token, once. With {@code --file-entry}
 * it talks to no server: it makes a token and prints the entry for the keys file, which holds only
 * the token's hash (how the first admin key is made).
 */
@Command(
    name = "create",
    mixinStandardHelpOptions = true,
    description =
        "Create an API key through a node and print its token (once); with --file-entry, print"
            + " an entry for the keys file instead (no server).")
final class CreateKeyCommand extends ClientCommand {
  @Option(names = "--name", required = true, description = "Unique name; journaled as who acted.")
  String name;

  @Option(names = "--role", required = true, description = "viewer, operator, developer or admin.")
  String role;

  @Option(
      names = "--flows",
      split = ",",
      paramLabel = "PATTERN",
      description = "Only these flows ('*' matches any run of characters), e.g. billing-*.")
  List<String> flows = List.of();

  @Option(
      names = "--expires",
      paramLabel = "DURATION",
      description = "Stops working after this long, e.g. 90d, 12h.")
  String expires;

  @Option(names = "--reason", paramLabel = "TEXT", description = "Why, for the audit record.")
  String reason;

  @Option(
      names = "--file-entry",
      description =
          "Talk to no server: print the token and the entry to add to the keys file"
              + " (auth.keysFile), for the first admin key.")
  boolean fileEntry;

  @Override
  public Integer call() {
    Role parsedRole;
    try {
      parsedRole = Role.parse(role);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--role: " + e.getMessage());
    }
    if (!name.matches(KeyAdministration.NAME_PATTERN)) {
      throw new ParameterException(
          spec.commandLine(), "--name: use letters, digits, '.', '_', '@' and '-'");
    }
    Instant expiresAt = expiresAt();
    if (!fileEntry) {
      return super.call();
    }
    printFileEntry(parsedRole, expiresAt);
    return ExitCodes.OK;
  }

  private Instant expiresAt() {
    if (expires == null) {
      return null;
    }
    try {
      return SystemScheduler.systemClock()
          .instant()
          .plus(Durations.parse(expires))
          .truncatedTo(ChronoUnit.SECONDS);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--expires: " + e.getMessage());
    }
  }

  @Override
  void run(BatonClient client) {
    ObjectNode body = ApiResponse.MAPPER.createObjectNode().put("name", name).put("role", role);
    if (!flows.isEmpty()) {
      ArrayNode patterns = body.putArray("flows");
      flows.forEach(patterns::add);
    }
    if (expires != null) {
      body.put("expires", expires);
    }
    if (reason != null) {
      body.put("reason", reason);
    }
    JsonNode key =
        Failures.check(client.post("/api/v1/keys", "application/json", body.toString())).json();
    output().print(key, out -> printKey(out, key));
  }

  private void printKey(PrintWriter out, JsonNode key) {
    out.println("token: " + key.path("token").asText());
    out.println("# Shown once: give it to the caller (BATON_TOKEN or --token).");
    out.println("id: " + key.path("id").asText());
    out.println("name: " + key.path("name").asText());
    out.println("role: " + key.path("role").asText());
    if (!flows.isEmpty()) {
      out.println("flows: " + String.join(", ", flows));
    }
    out.println(
        "expires: " + (key.path("expires").isNull() ? "never" : key.path("expires").asText()));
  }

  /**
   * The token and the keys file's entry; {@code -o json|yaml}: {@code {token, entry: {name, role,
   * hash, flows, expires}}}.
   */
  private void printFileEntry(Role parsedRole, Instant expiresAt) {
    String token = ApiTokens.generate();
    ObjectNode entry =
        ApiResponse.MAPPER
            .createObjectNode()
            .put("name", name)
            .put("role", parsedRole.displayName())
            .put("hash", ApiTokens.hash(token));
    if (!flows.isEmpty()) {
      ArrayNode patterns = entry.putArray("flows");
      flows.forEach(patterns::add);
    }
    if (expiresAt != null) {
      entry.put("expires", expiresAt.toString());
    }
    ObjectNode made = ApiResponse.MAPPER.createObjectNode().put("token", token);
    made.set("entry", entry);
    output().print(made, out -> printEntryLines(out, token, parsedRole, expiresAt));
  }

  private void printEntryLines(PrintWriter out, String token, Role parsedRole, Instant expiresAt) {
    out.println("token: " + token);
    out.println("# Shown once: give it to the caller (BATON_TOKEN or --token). Add this entry");
    out.println("# under 'keys:' in the node's keys file (auth.keysFile):");
    out.println("  - name: " + name);
    out.println("    role: " + parsedRole.displayName());
    out.println("    hash: " + ApiTokens.hash(token));
    if (!flows.isEmpty()) {
      out.println(
          "    flows: ["
              + String.join(", ", flows.stream().map(f -> "\"" + f + "\"").toList())
              + "]");
    }
    if (expiresAt != null) {
      out.println("    expires: " + expiresAt);
    }
  }
}

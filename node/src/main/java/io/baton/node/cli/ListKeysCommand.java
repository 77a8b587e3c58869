package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code baton keys list}: every key a node knows, never a token. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = "List API keys (the keys file's and those created through the API); admins only.")
final class ListKeysCommand extends ClientCommand {
  @Override
  void run(BatonClient client) {
    JsonNode answer = Failures.check(client.get("/api/v1/keys")).json();
    output().print(answer, out -> printTable(out, answer.path("keys")));
  }

  private static void printTable(PrintWriter out, JsonNode keys) {
    TextTable table = new TextTable("ID", "NAME", "ROLE", "FLOWS", "EXPIRES", "STATUS", "SOURCE");
    for (JsonNode key : keys) {
      List<String> flows = new ArrayList<>();
      key.path("flows").forEach(flow -> flows.add(flow.asText()));
      table.row(
          key.path("id").asText(),
          key.path("name").asText(),
          key.path("role").asText(),
          flows.isEmpty() ? "*" : String.join(",", flows),
          key.path("expires").isNull() ? "never" : key.path("expires").asText(),
          key.path("status").asText(),
          key.path("source").asText());
    }
    if (table.isEmpty()) {
      out.println("No keys");
    } else {
      table.print(out);
    }
  }
}

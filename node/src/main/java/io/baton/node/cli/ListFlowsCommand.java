package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import picocli.CommandLine.Command;

/** {@code baton flows list}: the newest version of each flow. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = "List flows (the newest version of each).")
final class ListFlowsCommand extends ClientCommand {
  @Override
  void run(BatonClient client) {
    JsonNode answer = Failures.check(client.get("/api/v1/flows")).json();
    output().print(answer, out -> printTable(out, answer.path("flows")));
  }

  private static void printTable(PrintWriter out, JsonNode flows) {
    TextTable table = new TextTable("NAME", "HASH", "CREATED");
    for (JsonNode flow : flows) {
      table.row(
          flow.path("name").asText(),
          Hashes.shortHash(flow.path("hash").asText()),
          flow.path("createdAt").asText());
    }
    if (table.isEmpty()) {
      out.println("No flows");
    } else {
      table.print(out);
    }
  }
}

package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import picocli.CommandLine.Command;

/** {@code baton cluster}: the nodes, their lease state and how many runs each owns. */
@Command(
    name = "cluster",
    mixinStandardHelpOptions = true,
    description = "List the cluster's nodes with their lease state and owned runs.")
final class ClusterCommand extends ClientCommand {
  @Override
  void run(BatonClient client) {
    JsonNode answer = Failures.check(client.get("/api/v1/cluster")).json();
    output().print(answer, out -> printTable(out, answer.path("nodes")));
  }

  private static void printTable(PrintWriter out, JsonNode nodes) {
    TextTable table = new TextTable("NODE", "ADDRESS", "LEASE", "RUNS", "VERSION", "STARTED");
    for (JsonNode node : nodes) {
      String name = node.path("id").asText() + (node.path("self").asBoolean() ? " *" : "");
      String lease =
          node.path("leaseState").asText()
              + (node.path("draining").asBoolean() ? " (draining)" : "");
      table.row(
          name,
          node.path("address").asText(),
          lease,
          node.path("ownedRuns").asInt(),
          node.path("version").asText(),
          node.path("startedAt").asText(null));
    }
    table.print(out);
  }
}

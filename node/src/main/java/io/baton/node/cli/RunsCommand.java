package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.RunStatus;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.StringJoiner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code baton runs}: runs newest first, filtered by status, flow and node. */
@Command(name = "runs", mixinStandardHelpOptions = true, description = "List runs, newest first.")
final class RunsCommand extends ClientCommand {
  @Option(
      names = "--status",
      paramLabel = "STATUS",
      description = "Only runs with this status: ${COMPLETION-CANDIDATES}.")
  RunStatus status;

  @Option(names = "--flow", paramLabel = "FLOW", description = "Only runs of this flow.")
  String flow;

  @Option(names = "--node", paramLabel = "NODE", description = "Only runs owned by this node.")
  String node;

  @Option(names = "--limit", paramLabel = "N", description = "At most N runs (default: 100).")
  Integer limit;

  @Override
  void run(BatonClient client) {
    JsonNode runs = Failures.check(client.get("/api/v1/runs" + query())).json().path("runs");
    TextTable table = new TextTable("ID", "FLOW", "STATUS", "NODE", "UPDATED");
    for (JsonNode run : runs) {
      table.row(
          run.path("id").asText(),
          run.path("flow").asText(),
          run.path("status").asText(),
          run.path("orchestratorId").asText(null),
          run.path("updatedAt").asText(null));
    }
    if (table.isEmpty()) {
      out().println("No runs");
    } else {
      table.print(out());
    }
  }

  private String query() {
    StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
    add(query, "status", status == null ? null : status.name());
    add(query, "flow", flow);
    add(query, "node", node);
    add(query, "limit", limit == null ? null : limit.toString());
    return query.toString();
  }

  private static void add(StringJoiner query, String name, String value) {
    if (value != null) {
      query.add(name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8));
    }
  }
}

package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.RunStatus;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.StringJoiner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code baton runs}: one page of runs, newest first, filtered by status, flow and node; {@code
 * --cursor} reads the next page (the {@code next} of the answer).
 */
@Command(name = "runs", mixinStandardHelpOptions = true, description = "List runs, newest first.")
final class RunsCommand extends ClientCommand {
  @Option(
      names = "--status",
      paramLabel = "STATUS",
      split = ",",
      description = "Only runs with one of these statuses: ${COMPLETION-CANDIDATES}.")
  List<RunStatus> statuses = List.of();

  @Option(names = "--flow", paramLabel = "FLOW", description = "Only runs of this flow.")
  String flow;

  @Option(names = "--node", paramLabel = "NODE", description = "Only runs owned by this node.")
  String node;

  @Option(names = "--limit", paramLabel = "N", description = "At most N runs (default: 100).")
  Integer limit;

  @Option(
      names = "--cursor",
      paramLabel = "CURSOR",
      description = "The page after the one that answered this 'next' cursor.")
  String cursor;

  @Override
  void run(BatonClient client) {
    JsonNode page = Failures.check(client.get("/api/v1/runs" + query())).json();
    output().print(page, out -> printTable(out, page));
  }

  private static void printTable(PrintWriter out, JsonNode page) {
    TextTable table = new TextTable("ID", "FLOW", "STATUS", "NODE", "UPDATED");
    for (JsonNode run : page.path("runs")) {
      String state = run.path("state").asText("");
      table.row(
          run.path("id").asText(),
          run.path("flow").asText(),
          run.path("status").asText() + (state.isEmpty() ? "" : " (" + state + ")"),
          run.path("orchestratorId").asText(null),
          run.path("updatedAt").asText(null));
    }
    if (table.isEmpty()) {
      out.println("No runs");
      return;
    }
    table.print(out);
    if (page.path("next").isTextual()) {
      out.println("More: --cursor " + page.path("next").asText());
    }
  }

  private String query() {
    StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
    add(
        query,
        "status",
        statuses.isEmpty()
            ? null
            : String.join(",", statuses.stream().map(RunStatus::name).toList()));
    add(query, "flow", flow);
    add(query, "node", node);
    add(query, "limit", limit == null ? null : limit.toString());
    add(query, "cursor", cursor);
    return query.toString();
  }

  private static void add(StringJoiner query, String name, String value) {
    if (value != null) {
      query.add(name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8));
    }
  }
}

package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.UUID;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code baton journal RUN}: every journal entry of a run, oldest first, read page by page from
 * {@code GET /api/v1/runs/{id}/journal} and printed as each page arrives, so a run with 100,000
 * entries starts printing at once and is never held whole. {@code -o json|yaml} prints the API's
 * answer with every page's entries in one list: {@code {runId, entries: [...]}}.
 */
@Command(
    name = "journal",
    mixinStandardHelpOptions = true,
    description = "Print a run's journal, oldest entry first.")
final class JournalCommand extends ClientCommand {
  static final int PAGE = 1000;

  @Parameters(paramLabel = "RUN", description = "The run id.")
  UUID runId;

  @Option(
      names = "--page-size",
      paramLabel = "N",
      hidden = true,
      description = "Entries per request (1 to 1000, default ${DEFAULT-VALUE}).")
  int pageSize = PAGE;

  @Override
  void run(BatonClient client) {
    JsonNode page = page(client, 0);
    ObjectNode head = ApiResponse.MAPPER.createObjectNode().put("runId", runId.toString());
    // Closed only when every page arrived: a page that fails leaves the JSON unfinished, so that
    // no program takes a part of the journal for all of it.
    Output.Listing listing =
        output().listing(head, "entries", JournalRows.table(), JournalRows::row);
    while (true) {
      page.path("entries").forEach(listing::add);
      listing.flush();
      JsonNode next = page.path("next");
      if (!next.isNumber()) {
        break;
      }
      page = page(client, next.asLong());
    }
    listing.end();
  }

  private JsonNode page(BatonClient client, long after) {
    ApiResponse response =
        client.get("/api/v1/runs/" + runId + "/journal?limit=" + pageSize + "&after=" + after);
    if (response.status() == 404) {
      throw new CommandFailedException(ExitCodes.NOT_FOUND, "Run " + runId + " not found");
    }
    return Failures.check(response).json();
  }
}

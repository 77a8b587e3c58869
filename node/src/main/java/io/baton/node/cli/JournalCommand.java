package io.baton.node.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.UUID;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code baton journal RUN}: every journal entry of a run, page by page, oldest first. */
@Command(
    name = "journal",
    mixinStandardHelpOptions = true,
    description = "Print a run's journal, oldest entry first.")
final class JournalCommand extends ClientCommand {
  static final int PAGE = 1000;

  @Parameters(paramLabel = "RUN", description = "The run id.")
  UUID runId;

  @Option(names = "--json", description = "Print the entries as one JSON array.")
  boolean json;

  @Override
  void run(BatonClient client) {
    ArrayNode entries = ApiResponse.MAPPER.createArrayNode();
    long after = 0;
    while (true) {
      ApiResponse response =
          client.get("/api/v1/runs/" + runId + "/journal?limit=" + PAGE + "&after=" + after);
      if (response.status() == 404) {
        throw new CommandFailedException(ExitCodes.NOT_FOUND, "Run " + runId + " not found");
      }
      JsonNode page = Failures.check(response).json();
      page.path("entries").forEach(entries::add);
      if (page.path("next").isNull() || page.path("next").isMissingNode()) {
        break;
      }
      after = page.path("next").asLong();
    }
    if (json) {
      out().println(pretty(entries));
      return;
    }
    TextTable table = new TextTable("SEQ", "TIME", "RUN", "EVENT", "STEP");
    for (JsonNode entry : entries) {
      JsonNode event = entry.path("event");
      table.row(
          entry.path("seq").asText(),
          entry.path("timestamp").asText(),
          Hashes.shortHash(entry.path("runId").asText()),
          event.path("type").asText(),
          event.path("step").asText(""));
    }
    table.print(out());
  }

  private static String pretty(JsonNode value) {
    try {
      return ApiResponse.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new CommandFailedException(ExitCodes.ERROR, "Cannot print the journal: " + e);
    }
  }
}

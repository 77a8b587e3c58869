package io.baton.node.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.UUID;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code baton run ID}: one run with its steps, or the API's JSON with {@code --json}. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = "Show a run with its steps and ownership history.")
final class RunCommand extends ClientCommand {
  @Parameters(paramLabel = "ID", description = "The run id.")
  UUID runId;

  @Option(names = "--json", description = "Print the API's JSON.")
  boolean json;

  @Override
  void run(BatonClient client) {
    ApiResponse response = client.get("/api/v1/runs/" + runId);
    if (response.status() == 404) {
      throw new CommandFailedException(ExitCodes.NOT_FOUND, "Run " + runId + " not found");
    }
    JsonNode run = Failures.check(response).json();
    if (json) {
      out().println(pretty(run));
    } else {
      new RunSummary(run).print(out());
    }
  }

  private static String pretty(JsonNode run) {
    try {
      return ApiResponse.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(run);
    } catch (JsonProcessingException e) {
      throw new CommandFailedException(ExitCodes.ERROR, "Cannot print the run: " + e);
    }
  }
}

package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.UUID;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * A command on one run ({@code resume}, {@code cancel}, {@code approve}, {@code reject}, {@code
 * discard}, {@code retry-now}): prints {@code Run <id> <done>} ({@code -o json|yaml}: the API's
 * answer, the run); an unknown run exits 3, a status that does not allow it exits 4 with the
 * server's reason. Who acted and why ({@code --by}, {@code --reason}) are journaled with the
 * command.
 */
abstract class RunActionCommand extends ClientCommand {
  @Parameters(index = "0", paramLabel = "ID", description = "The run id.")
  UUID runId;

  @Option(
      names = "--by",
      paramLabel = "NAME",
      description =
          "Who does this, for the run's history (default: your user name; with an API key, the"
              + " key's name).")
  String by = System.getProperty("user.name", "cli");

  @Option(
      names = "--reason",
      paramLabel = "TEXT",
      description = "Why, kept in the run's history with who did it.")
  String reason;

  /** The API's name of the command, such as {@code resume}. */
  abstract String action();

  /** What the success message says was done, such as {@code resumed}. */
  abstract String done();

  /** Adds the command's own fields to the request body. */
  void addTo(ObjectNode body) {}

  /** Sends the command: a POST to the run's action by default. */
  ApiResponse send(BatonClient client, ObjectNode body) {
    return client.post(
        "/api/v1/runs/" + runId + "/" + action(), "application/json", body.toString());
  }

  /** What an unknown run's 404 says. */
  String notFound(ApiResponse response) {
    return "Run " + runId + " not found";
  }

  /** What {@code -o json|yaml} prints of a successful answer: the answer's body by default. */
  JsonNode answer(ApiResponse response) {
    return response.json();
  }

  @Override
  void run(BatonClient client) {
    ObjectNode body = ApiResponse.MAPPER.createObjectNode().put("by", by);
    if (reason != null) {
      body.put("reason", reason);
    }
    addTo(body);
    ApiResponse response = send(client, body);
    if (response.status() == 404) {
      throw new CommandFailedException(ExitCodes.NOT_FOUND, notFound(response));
    }
    Failures.check(response);
    output().print(answer(response), out -> out.println("Run " + runId + " " + done()));
  }
}

package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;

/**
 * {@code baton discard ID}: {@code DELETE /api/v1/runs/ID}; {@code --reason} goes to the audit log
 * (the run's journal goes with the run). {@code -o json} prints {@code {id, discarded: true}}.
 */
@Command(
    name = "discard",
    mixinStandardHelpOptions = true,
    description =
        "Discard a run that is not live (a recoverable failure, or any finished run): it is"
            + " deleted with its subflows and journal at once. A live run is refused (cancel it"
            + " first).")
final class DiscardCommand extends RunActionCommand {
  @Override
  String action() {
    return "discard";
  }

  @Override
  String done() {
    return "discarded";
  }

  /** The API answers 204 without a body: the run is gone. */
  @Override
  JsonNode answer(ApiResponse response) {
    return ApiResponse.MAPPER.createObjectNode().put("id", runId.toString()).put("discarded", true);
  }

  @Override
  ApiResponse send(BatonClient client, ObjectNode body) {
    return client.delete("/api/v1/runs/" + runId, "application/json", body.toString());
  }
}

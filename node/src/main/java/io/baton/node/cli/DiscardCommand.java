package io.baton.node.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code baton discard ID}: {@code DELETE /api/v1/runs/ID}. */
@Command(
    name = "discard",
    mixinStandardHelpOptions = true,
    description =
        "Discard a run that is not live (a recoverable failure, or any finished run): it is"
            + " deleted with its subflows and journal at once. A live run is refused (cancel it"
            + " first).")
final class DiscardCommand extends RunActionCommand {
  @Option(
      names = "--reason",
      paramLabel = "TEXT",
      description = "Why, for the audit log (the run's journal goes with it).")
  String reason;

  @Override
  String action() {
    return "discard";
  }

  @Override
  String done() {
    return "discarded";
  }

  @Override
  void addTo(ObjectNode body) {
    if (reason != null) {
      body.put("reason", reason);
    }
  }

  @Override
  ApiResponse send(BatonClient client, ObjectNode body) {
    return client.delete("/api/v1/runs/" + runId, "application/json", body.toString());
  }
}

package io.baton.node.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code baton retry-now ID STEP [--reason R]}: {@code POST /api/v1/runs/ID/steps/STEP/retry-now}.
 * A step that is not waiting to retry a failed attempt exits 4 with the server's reason; an unknown
 * run or step exits 3.
 */
@Command(
    name = "retry-now",
    mixinStandardHelpOptions = true,
    description =
        "Retry a step in back-off now: its next attempt, due later after a failed one, starts at"
            + " once (same attempt count; maxAttempts still applies).")
final class RetryNowCommand extends RunActionCommand {
  @Parameters(index = "1", paramLabel = "STEP", description = "The step waiting in back-off.")
  String step;

  @Override
  String action() {
    return "retry-now";
  }

  @Override
  String done() {
    return "retried step " + step + " now";
  }

  @Override
  ApiResponse send(BatonClient client, ObjectNode body) {
    return client.post(
        "/api/v1/runs/" + runId + "/steps/" + step + "/retry-now",
        "application/json",
        body.toString());
  }

  /** A 404 may name the step: the server's words say which. */
  @Override
  String notFound(ApiResponse response) {
    return response.detail();
  }
}

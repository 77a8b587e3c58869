package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Set;

/** Waits for a run to end ({@code submit --wait}), reading it every {@link #POLL}. */
final class RunEnd {
  static final Duration POLL = Duration.ofMillis(200);
  private static final Set<String> ENDS = Set.of("SUCCEEDED", "FAILED", "CANCELLED");

  private RunEnd() {}

  /** The run once its status is final. */
  static JsonNode await(BatonClient client, String runId) {
    while (true) {
      JsonNode run = Failures.check(client.get("/api/v1/runs/" + runId)).json();
      if (ENDS.contains(run.path("status").asText())) {
        return run;
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CommandFailedException(
            ExitCodes.ERROR, "Interrupted while waiting for run " + runId);
      }
    }
  }

  /** The exit code of a final status: 0, {@link ExitCodes#RUN_FAILED} or RUN_CANCELLED. */
  static int exitCode(JsonNode run) {
    return switch (run.path("status").asText()) {
      case "SUCCEEDED" -> ExitCodes.OK;
      case "FAILED" -> ExitCodes.RUN_FAILED;
      default -> ExitCodes.RUN_CANCELLED;
    };
  }
}

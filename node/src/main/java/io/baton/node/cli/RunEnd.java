package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Set;

/**
 * A run's end as the CLI reports it: {@code submit --wait} reads the run every {@link #POLL} until
 * it ended ({@code run --follow} learns it from the event stream); both exit with {@link
 * #exitCode}.
 */
final class RunEnd {
  static final Duration POLL = Duration.ofMillis(200);
  private static final Set<String> ENDS = Set.of("SUCCEEDED", "FAILED", "CANCELLED");

  private RunEnd() {}

  /** Whether the run (as the API shows it) has a final status. */
  static boolean ended(JsonNode run) {
    return ENDS.contains(run.path("status").asText());
  }

  /** The run once its status is final. */
  static JsonNode await(BatonClient client, String runId) {
    while (true) {
      JsonNode run = Failures.check(client.get("/api/v1/runs/" + runId)).json();
      if (ended(run)) {
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

  /** Says on stderr how a run that did not succeed ended; nothing for a success. */
  static void reportFailure(JsonNode run, PrintWriter err) {
    if (exitCode(run) != ExitCodes.OK) {
      err.println(
          "Run "
              + run.path("id").asText()
              + " "
              + run.path("status").asText()
              + ": "
              + run.path("statusReason").asText());
      err.flush();
    }
  }
}

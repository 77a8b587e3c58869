package io.baton.node.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code baton submit FLOW}: starts a run and prints its id (and nothing else, for scripts). */
@Command(
    name = "submit",
    mixinStandardHelpOptions = true,
    description = "Submit a run of a flow; prints the run id.")
final class SubmitCommand extends ClientCommand {
  @Parameters(paramLabel = "FLOW", description = "The flow's name.")
  String flow;

  @Option(names = "--input", paramLabel = "JSON", description = "The run's input (default: {}).")
  String input;

  @Option(
      names = "--idempotency-key",
      paramLabel = "KEY",
      description = "Submitting again with the same key returns the same run.")
  String idempotencyKey;

  @Option(
      names = "--wait",
      description =
          "Wait until the run ends; exit 0 when it succeeded, "
              + ExitCodes.RUN_FAILED
              + " when it failed, "
              + ExitCodes.RUN_CANCELLED
              + " when it was cancelled.")
  boolean waitForEnd;

  private int exit = ExitCodes.OK;

  @Override
  void run(BatonClient client) {
    ObjectNode body = ApiResponse.MAPPER.createObjectNode().put("flow", flow);
    body.set("input", input == null ? ApiResponse.MAPPER.createObjectNode() : parse(input));
    if (idempotencyKey != null) {
      body.put("idempotencyKey", idempotencyKey);
    }
    ApiResponse response =
        Failures.check(client.post("/api/v1/runs", "application/json", body.toString()));
    String runId = response.json().path("id").asText();
    out().println(runId);
    out().flush();
    if (waitForEnd) {
      JsonNode run = RunEnd.await(client, runId);
      exit = RunEnd.exitCode(run);
      if (exit != ExitCodes.OK) {
        err()
            .println(
                "Run "
                    + runId
                    + " "
                    + run.path("status").asText()
                    + ": "
                    + run.path("statusReason").asText());
      }
    }
  }

  @Override
  int exitCode() {
    return exit;
  }

  private JsonNode parse(String json) {
    try {
      return ApiResponse.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new ParameterException(
          spec.commandLine(),
          "Invalid value for --input: not JSON (" + e.getOriginalMessage() + ")");
    }
  }
}

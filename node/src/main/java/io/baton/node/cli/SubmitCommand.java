package io.baton.node.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.trace.TraceParent;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code baton submit FLOW}: starts a run and prints its id (and nothing else, for scripts); {@code
 * -o json|yaml} prints the API's answer instead, and with {@code --wait} the run at its end.
 */
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
      names = "--traceparent",
      paramLabel = "TRACEPARENT",
      defaultValue = "${env:TRACEPARENT}",
      description =
          "A W3C trace context the run continues (default: $TRACEPARENT), e.g."
              + " 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01.")
  String traceparent;

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
    Map<String, String> headers =
        traceparent == null || traceparent.isBlank()
            ? Map.of()
            : Map.of(TraceParent.HEADER, traceparent.trim());
    ApiResponse response =
        Failures.check(client.post("/api/v1/runs", "application/json", body.toString(), headers));
    JsonNode submitted = response.json();
    String runId = submitted.path("id").asText();
    Output output = output();
    if (output.isTable()) {
      out().println(runId);
      out().flush();
    }
    if (!waitForEnd) {
      output.print(submitted, out -> {});
      return;
    }
    JsonNode run = RunEnd.await(client, runId);
    exit = RunEnd.exitCode(run);
    output.print(run, out -> {});
    RunEnd.reportFailure(run, err());
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

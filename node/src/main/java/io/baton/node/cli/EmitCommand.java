package io.baton.node.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.UUID;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code baton emit TYPE}: sends one CloudEvent and prints the runs it started, one id per line
 * (and nothing else, for scripts). Emitting again with the same {@code --id} starts nothing new and
 * prints the same runs.
 */
@Command(
    name = "emit",
    mixinStandardHelpOptions = true,
    description = "Send an event; prints the ids of the runs it started (or had started).")
final class EmitCommand extends ClientCommand {
  @Parameters(paramLabel = "TYPE", description = "The event's type, such as order.created.")
  String type;

  @Option(names = "--data", paramLabel = "JSON", description = "The event's data (default: {}).")
  String data;

  @Option(
      names = "--id",
      paramLabel = "ID",
      description = "The event's id (default: a new UUID); the same id is the same event.")
  String id;

  @Option(
      names = "--source",
      paramLabel = "SOURCE",
      description = "The event's source (default: baton-cli).")
  String source = "baton-cli";

  @Override
  void run(BatonClient client) {
    ObjectNode event =
        ApiResponse.MAPPER
            .createObjectNode()
            .put("specversion", "1.0")
            .put("id", id == null ? UUID.randomUUID().toString() : id)
            .put("source", source)
            .put("type", type);
    event.set("data", data == null ? ApiResponse.MAPPER.createObjectNode() : parse(data));
    ApiResponse response =
        Failures.check(
            client.post("/api/events", "application/cloudevents+json", event.toString()));
    JsonNode answer = response.json();
    output()
        .print(
            answer,
            out -> answer.path("runs").forEach(run -> out.println(run.path("runId").asText())));
  }

  private JsonNode parse(String json) {
    try {
      return ApiResponse.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new ParameterException(
          spec.commandLine(),
          "Invalid value for --data: not JSON (" + e.getOriginalMessage() + ")");
    }
  }
}

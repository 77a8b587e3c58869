package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code baton flows apply FILE}: validates and stores a flow; prints its name and hash. */
@Command(
    name = "apply",
    mixinStandardHelpOptions = true,
    description = "Validate and store a flow from a YAML or JSON file.")
final class ApplyFlowCommand extends ClientCommand {
  @Parameters(paramLabel = "FILE", description = "The flow file (.yaml, .yml or .json).")
  Path file;

  @Override
  void run(BatonClient client) {
    String text = read(file);
    String source = URLEncoder.encode(file.toString(), StandardCharsets.UTF_8);
    ApiResponse response =
        Failures.check(client.post("/api/v1/flows?source=" + source, contentType(file), text));
    JsonNode flow = response.json();
    output()
        .print(
            flow,
            out ->
                out.println(
                    "Flow "
                        + flow.path("name").asText()
                        + " applied (hash "
                        + Hashes.shortHash(flow.path("hash").asText())
                        + ")"));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new CommandFailedException(ExitCodes.ERROR, "No such file: " + file);
    } catch (IOException e) {
      throw new CommandFailedException(ExitCodes.ERROR, "Cannot read " + file + ": " + e);
    }
  }

  private static String contentType(Path file) {
    return file.toString().endsWith(".json") ? "application/json" : "application/yaml";
  }
}

package io.baton.node.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code baton flows show NAME}: the newest version's definition, as YAML or JSON. */
@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    description = "Show a flow's definition (its newest version) and its versions.")
final class ShowFlowCommand extends ClientCommand {
  /** How to print the flow. */
  enum Format {
    YAML,
    JSON
  }

  @Parameters(paramLabel = "NAME", description = "The flow's name.")
  String name;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      description = "yaml (the definition, default) or json (the API's answer).")
  Format format = Format.YAML;

  @Override
  void run(BatonClient client) {
    ApiResponse response =
        client.get("/api/v1/flows/" + URLEncoder.encode(name, StandardCharsets.UTF_8));
    if (response.status() == 404) {
      throw new CommandFailedException(ExitCodes.NOT_FOUND, "Flow '" + name + "' not found");
    }
    JsonNode flow = Failures.check(response).json();
    try {
      if (format == Format.JSON) {
        out().println(ApiResponse.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(flow));
      } else {
        out().println("# " + name + " " + flow.path("hash").asText());
        out().print(new YAMLMapper().writeValueAsString(flow.path("definition")));
      }
    } catch (JsonProcessingException e) {
      throw new CommandFailedException(ExitCodes.ERROR, "Cannot print the flow: " + e);
    }
  }
}

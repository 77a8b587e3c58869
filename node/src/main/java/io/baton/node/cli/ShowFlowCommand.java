package io.baton.node.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code baton flows show NAME}: the newest version's definition as YAML that {@code flows apply}
 * takes back, under a comment with its name and hash; {@code -o json|yaml} prints the API's answer
 * (name, hash, definition, versions).
 */
@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    description = "Show a flow's definition (its newest version); -o json|yaml: also its versions.")
final class ShowFlowCommand extends ClientCommand {
  @Parameters(paramLabel = "NAME", description = "The flow's name.")
  String name;

  @Override
  void run(BatonClient client) {
    ApiResponse response =
        client.get("/api/v1/flows/" + URLEncoder.encode(name, StandardCharsets.UTF_8));
    if (response.status() == 404) {
      throw new CommandFailedException(ExitCodes.NOT_FOUND, "Flow '" + name + "' not found");
    }
    JsonNode flow = Failures.check(response).json();
    output().print(flow, out -> printDefinition(out, flow));
  }

  private void printDefinition(PrintWriter out, JsonNode flow) {
    out.println("# " + name + " " + flow.path("hash").asText());
    try {
      out.print(new YAMLMapper().writeValueAsString(flow.path("definition")));
    } catch (JsonProcessingException e) {
      throw new CommandFailedException(ExitCodes.ERROR, "Cannot print the flow: " + e);
    }
  }
}

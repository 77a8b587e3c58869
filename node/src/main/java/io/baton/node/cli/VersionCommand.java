package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;

/**
 * {@code baton version}: this client's version and, when it answers, the server's. {@code -o
 * json|yaml}: {@code {client, server}}, the server's being the API's answer or null when it does
 * not answer (said on stderr).
 */
@Command(
    name = "version",
    mixinStandardHelpOptions = true,
    description = "Print the client's version and the server's when it answers.")
final class VersionCommand extends ClientCommand {
  @Override
  void run(BatonClient client) {
    ObjectNode versions =
        ApiResponse.MAPPER.createObjectNode().put("client", ClientVersion.current());
    String unreachable = null;
    try {
      versions.set("server", Failures.check(client.get("/api/v1/version")).json());
    } catch (CommandFailedException failed) {
      versions.set("server", NullNode.getInstance());
      unreachable = "server not reachable at " + client.server() + ": " + failed.getMessage();
    }
    String reason = unreachable;
    output()
        .print(
            versions,
            out -> {
              out.println("client " + versions.path("client").asText());
              JsonNode server = versions.path("server");
              out.println(
                  reason != null
                      ? reason
                      : "server "
                          + server.path("version").asText()
                          + " (node "
                          + server.path("nodeId").asText()
                          + " at "
                          + client.server()
                          + ")");
            });
    if (reason != null && !output().isTable()) {
      err().println(reason);
    }
  }
}

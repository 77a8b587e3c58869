package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;

/** {@code baton version}: this client's version and, when it answers, the server's. */
@Command(
    name = "version",
    mixinStandardHelpOptions = true,
    description = "Print the client's version and the server's when it answers.")
final class VersionCommand extends ClientCommand {
  @Override
  void run(BatonClient client) {
    out().println("client " + ClientVersion.current());
    try {
      JsonNode server = Failures.check(client.get("/api/v1/version")).json();
      out()
          .println(
              "server "
                  + server.path("version").asText()
                  + " (node "
                  + server.path("nodeId").asText()
                  + " at "
                  + client.server()
                  + ")");
    } catch (CommandFailedException unreachable) {
      out().println("server not reachable at " + client.server() + ": " + unreachable.getMessage());
    }
  }
}

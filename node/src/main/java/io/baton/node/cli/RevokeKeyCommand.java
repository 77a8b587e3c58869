package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code baton keys revoke ID}: the key stops working on every node within seconds. */
@Command(
    name = "revoke",
    mixinStandardHelpOptions = true,
    description =
        "Revoke an API key created through the API (keys of the keys file are revoked there);"
            + " admins only.")
final class RevokeKeyCommand extends ClientCommand {
  @Parameters(paramLabel = "ID", description = "The key's id, as 'baton keys list' shows it.")
  String id;

  @Option(names = "--reason", paramLabel = "TEXT", description = "Why, for the audit record.")
  String reason;

  @Override
  void run(BatonClient client) {
    ObjectNode body = ApiResponse.MAPPER.createObjectNode();
    if (reason != null) {
      body.put("reason", reason);
    }
    ApiResponse response = client.delete("/api/v1/keys/" + id, "application/json", body.toString());
    if (response.status() == 404) {
      throw new CommandFailedException(ExitCodes.NOT_FOUND, response.detail());
    }
    JsonNode revoked = Failures.check(response).json();
    output()
        .print(
            revoked,
            out -> out.println("Key " + id + " (" + revoked.path("name").asText() + ") revoked"));
  }
}

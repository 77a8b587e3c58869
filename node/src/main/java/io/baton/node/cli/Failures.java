package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;

/** Turns a server's error answer into the message and exit code the CLI promises. */
final class Failures {
  private Failures() {}

  /** Returns the response when it is a success; throws what the CLI reports otherwise. */
  static ApiResponse check(ApiResponse response) {
    if (response.ok()) {
      return response;
    }
    throw failure(response);
  }

  static CommandFailedException failure(ApiResponse response) {
    return switch (response.status()) {
      case 401 ->
          new CommandFailedException(
              ExitCodes.DENIED,
              "Not authenticated: " + response.detail() + " (set BATON_TOKEN or --token)");
      case 403 -> new CommandFailedException(ExitCodes.DENIED, "Not allowed: " + response.detail());
      case 404 -> new CommandFailedException(ExitCodes.NOT_FOUND, response.detail());
      case 409 -> new CommandFailedException(ExitCodes.CONFLICT, response.detail());
      case 400 -> new CommandFailedException(ExitCodes.ERROR, withErrors(response));
      case 503 ->
          new CommandFailedException(ExitCodes.ERROR, "Server unavailable: " + response.detail());
      default ->
          new CommandFailedException(
              ExitCodes.ERROR,
              "Server error (HTTP " + response.status() + "): " + response.detail());
    };
  }

  private static String withErrors(ApiResponse response) {
    StringBuilder message = new StringBuilder(response.detail());
    for (JsonNode error : response.json().path("errors")) {
      message
          .append(System.lineSeparator())
          .append("  ")
          .append(error.path("file").asText())
          .append(':')
          .append(error.path("line").asInt())
          .append(':')
          .append(error.path("column").asInt())
          .append(": ");
      String field = error.path("field").asText();
      if (!field.isEmpty()) {
        message.append(field).append(": ");
      }
      message.append(error.path("message").asText());
    }
    return message.toString();
  }
}

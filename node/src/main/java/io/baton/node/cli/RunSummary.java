package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;

/** A run as {@code baton run} shows it to people: what it is, where it stands, its steps. */
final class RunSummary {
  private final JsonNode run;

  RunSummary(JsonNode run) {
    this.run = run;
  }

  void print(PrintWriter out) {
    out.println("Run " + text("id") + "  " + text("flow") + "  " + text("status"));
    field(out, "reason", text("statusReason"));
    field(out, "node", text("orchestratorId"));
    field(out, "parent", text("parentRunId"));
    field(out, "created", text("createdAt"));
    field(out, "updated", text("updatedAt"));
    field(out, "wakes at", text("wakeAt"));
    field(out, "input", json(run.path("input")));
    field(out, "output", json(run.path("output")));
    JsonNode error = run.path("error");
    if (error.isObject()) {
      field(out, "error", error.path("code").asText() + ": " + error.path("message").asText());
      field(out, "resumable", run.path("recoverable").asBoolean() ? "yes" : "no");
    }
    printSteps(out);
    printOwnership(out);
  }

  private void printSteps(PrintWriter out) {
    TextTable steps = new TextTable("STEP", "STATUS", "ATTEMPTS", "DETAIL");
    for (JsonNode step : run.path("steps")) {
      steps.row(
          step.path("name").asText(),
          step.path("status").asText(),
          step.path("attempts").asInt(),
          detail(step));
    }
    out.println();
    steps.print(out);
  }

  private static String detail(JsonNode step) {
    if (step.path("waitingFor").isTextual()) {
      return "waiting for " + step.path("waitingFor").asText();
    }
    if (step.path("error").isObject()) {
      return step.path("error").path("code").asText()
          + ": "
          + step.path("error").path("message").asText();
    }
    if (step.path("retryAt").isTextual()) {
      return "retry at " + step.path("retryAt").asText();
    }
    return "";
  }

  private void printOwnership(PrintWriter out) {
    TextTable claims = new TextTable("CLAIMED BY", "REASON", "TOKEN", "AT");
    for (JsonNode claim : run.path("ownership")) {
      claims.row(
          claim.path("node").asText(),
          claim.path("reason").asText(),
          claim.path("token").asLong(),
          claim.path("at").asText());
    }
    if (!claims.isEmpty()) {
      out.println();
      claims.print(out);
    }
  }

  private String text(String field) {
    JsonNode value = run.path(field);
    return value.isNull() || value.isMissingNode() ? "" : value.asText();
  }

  private static String json(JsonNode value) {
    return value.isNull() || value.isMissingNode() ? "" : value.toString();
  }

  private static void field(PrintWriter out, String label, String value) {
    if (!value.isEmpty()) {
      out.println("  " + label + ": " + value);
    }
  }
}

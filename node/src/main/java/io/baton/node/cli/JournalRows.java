package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;

/** Journal entries as table rows, for {@code baton journal} and {@code baton run --follow}. */
final class JournalRows {
  private JournalRows() {}

  /** An empty table with the journal's columns, wide enough for a typical entry. */
  static TextTable table() {
    return new TextTable("SEQ", "TIME", "RUN", "EVENT", "STEP", "DETAIL")
        .minWidths(3, 24, Hashes.SHORT_LENGTH, 16, 8);
  }

  static Object[] row(JsonNode entry) {
    JsonNode event = entry.path("event");
    return new Object[] {
      entry.path("seq").asText(),
      entry.path("timestamp").asText(),
      Hashes.shortHash(entry.path("runId").asText()),
      event.path("type").asText(),
      event.path("step").asText(""),
      detail(event)
    };
  }

  /** The few fields that say what happened; the rest is in {@code -o json}. */
  static String detail(JsonNode event) {
    return switch (event.path("type").asText()) {
      case "StepStarted", "StepCompleted", "StepRepeated" -> "attempt " + text(event, "attempt");
      case "StepFailed" ->
          "attempt "
              + text(event, "attempt")
              + ": "
              + text(event, "errorCode")
              + (event.path("retryAt").isTextual() ? ", retry at " + text(event, "retryAt") : "");
      case "RunStatusChanged" ->
          text(event, "from") + " -> " + text(event, "to") + reason(event, "reason");
      case "RunClaimed" -> "by " + text(event, "node") + reason(event, "reason");
      case "RunWaiting" ->
          "for "
              + text(event, "reason")
              + (event.path("dueAt").isTextual() ? " until " + text(event, "dueAt") : "");
      case "RunWoken" -> text(event, "reason") + reason(event, "outcome");
      case "RunCompleted" ->
          event.path("error").isObject() ? text(event.path("error"), "code") : "succeeded";
      case "CommandApplied" ->
          text(event, "command") + " by " + text(event, "by") + reason(event, "reason");
      default -> "";
    };
  }

  private static String text(JsonNode node, String field) {
    return node.path(field).asText("");
  }

  private static String reason(JsonNode event, String field) {
    String value = text(event, field);
    return value.isEmpty() ? "" : " (" + value + ")";
  }
}

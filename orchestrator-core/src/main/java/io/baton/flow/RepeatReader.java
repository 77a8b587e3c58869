package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/** Reads a step's {@code repeat} block into a {@link RepeatPolicy}; null without one. */
final class RepeatReader {
  static final List<String> KEYS = List.of("until", "max", "every");

  /** Built-in capabilities that park the run instead of completing: they cannot repeat. */
  static final Set<String> SUSPENDING = Set.of("sleep", "approval", "flow");

  private final Report report;
  private final Fields fields;

  RepeatReader(Report report, Fields fields) {
    this.report = report;
    this.fields = fields;
  }

  RepeatPolicy read(JsonNode step, String stepPath) {
    JsonNode repeat = Fields.present(step, "repeat");
    if (repeat == null) {
      return null;
    }
    String path = FieldPaths.key(stepPath, "repeat");
    if (!repeat.isObject()) {
      fields.wrongType(
          path,
          "repeat",
          "a mapping such as {until: \"{{ steps.NAME.output.done }}\", max: 10}",
          repeat);
      return null;
    }
    fields.allowOnly(repeat, path, KEYS, "repeat");
    JsonNode capability = step.get("capability");
    if (capability != null && capability.isTextual() && SUSPENDING.contains(capability.asText())) {
      report.atValue(
          path,
          "a "
              + capability.asText()
              + " step cannot repeat (it waits instead of completing); repeat the step that"
              + " polls, and use repeat.every to wait between its iterations");
    }
    if (Fields.present(repeat, "until") == null) {
      fields.missing(
          path, "until", "a repeat stops when until holds, e.g. \"{{ steps.NAME.output.done }}\"");
    }
    if (Fields.present(repeat, "max") == null) {
      fields.missing(path, "max", "a repeat needs a bound: the most iterations it may run");
    }
    String until = fields.text(repeat, path, "until");
    Integer max = fields.count(repeat, path, "max");
    Duration every = fields.duration(repeat, path, "every", true);
    RepeatCondition condition = null;
    if (until != null) {
      try {
        condition = RepeatCondition.parse(until);
      } catch (TemplateException e) {
        report.atValue(FieldPaths.key(path, "until"), "bad condition: " + e.getMessage());
      }
    }
    if (max != null && max < 1) {
      report.atValue(FieldPaths.key(path, "max"), "max must be at least 1, not " + max);
      return null;
    }
    if (condition == null || max == null) {
      return null;
    }
    return new RepeatPolicy(condition, max, every);
  }
}

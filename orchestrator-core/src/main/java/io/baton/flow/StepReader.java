package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.List;

/** Reads one step: its keys and their types; checks that need other steps come later. */
final class StepReader {
  static final List<String> KEYS =
      List.of("name", "capability", "operation", "needs", "params", "timeout", "retry", "repeat");

  private final Report report;
  private final Fields fields;

  StepReader(Report report, Fields fields) {
    this.report = report;
    this.fields = fields;
  }

  /** The draft, or null when the step is not a mapping. */
  StepDraft read(JsonNode step, int index) {
    String path = FieldPaths.index("steps", index);
    if (!step.isObject()) {
      report.atValue(
          path, "a step is a mapping with a name and a capability, not " + Fields.describe(step));
      return null;
    }
    fields.allowOnly(step, path, KEYS, "a step");
    requireKey(step, path, "name", "every step needs a name (" + FlowNames.RULE + ")");
    requireKey(step, path, "capability", "every step names the capability it invokes");
    return new StepDraft(
        index,
        path,
        fields.name(step, path, "step"),
        fields.text(step, path, "capability"),
        fields.text(step, path, "operation"),
        step.has("params") ? step.get("params") : NullNode.getInstance(),
        fields.texts(step, path, "needs"),
        fields.duration(step, path, "timeout", false),
        new RetryReader(report, fields).read(step, path),
        new RepeatReader(report, fields).read(step, path));
  }

  private void requireKey(JsonNode step, String path, String key, String why) {
    if (Fields.present(step, key) == null) {
      fields.missing(path, key, why);
    }
  }
}

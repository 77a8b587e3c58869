package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads the top level of a flow document and, through {@link StepReader}, its steps. */
final class FlowTreeReader {
  static final List<String> KEYS =
      List.of(
          "name",
          "description",
          "recovery",
          "maxResumeAge",
          "retention",
          "output",
          TriggerReader.FIELD,
          "steps");
  private static final Map<String, RecoveryPolicy> RECOVERY = new LinkedHashMap<>();

  static {
    RECOVERY.put("resume", RecoveryPolicy.RESUME);
    RECOVERY.put("fail", RecoveryPolicy.FAIL);
  }

  private final Report report;
  private final Fields fields;

  FlowTreeReader(Report report) {
    this.report = report;
    this.fields = new Fields(report);
  }

  /** The draft, or null when the document is not a mapping at all. */
  FlowDraft read(JsonNode root) {
    String path = FieldPaths.ROOT;
    if (!root.isObject()) {
      report.atValue(
          path, "a flow is a mapping with a name and steps, not " + Fields.describe(root));
      return null;
    }
    fields.allowOnly(root, path, KEYS, "the flow");
    if (Fields.present(root, "name") == null) {
      fields.missing(path, "name", "every flow needs a name (" + FlowNames.RULE + ")");
    }
    return new FlowDraft(
        fields.name(root, path, "flow"),
        fields.text(root, path, "description"),
        fields.choice(root, path, "recovery", RECOVERY),
        fields.duration(root, path, "maxResumeAge", false),
        Fields.present(root, "output"),
        steps(root),
        new TriggerReader(report, fields).read(root),
        fields.duration(root, path, "retention", false));
  }

  private List<StepDraft> steps(JsonNode root) {
    JsonNode steps = Fields.present(root, "steps");
    if (steps == null) {
      fields.missing(FieldPaths.ROOT, "steps", "a flow needs at least one step");
      return List.of();
    }
    if (!steps.isArray()) {
      fields.wrongType("steps", "steps", "a list of steps", steps);
      return List.of();
    }
    if (steps.isEmpty()) {
      report.atValue("steps", "steps is empty: a flow needs at least one step");
    }
    StepReader reader = new StepReader(report, fields);
    List<StepDraft> drafts = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      StepDraft draft = reader.read(steps.get(i), i);
      if (draft != null) {
        drafts.add(draft);
      }
    }
    return drafts;
  }
}

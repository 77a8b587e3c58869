package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks every template in step params and in the flow's output: syntax, that {@code steps.X} names
 * a step and reads its {@code output}, that {@code run} is only {@code run.id}, {@code run.attempt}
 * or (in a step with {@code repeat}) {@code run.iteration}, and that a step only reads steps it
 * waits for (directly or through others), or itself when it repeats (its last iteration's output,
 * in its params and its {@code until}). The flow's output may read any step. Keys are never
 * rendered, so a key with <code>{{</code> is refused.
 */
final class TemplateCheck {
  private static final String OPEN = "{{";
  private final StepGraph graph;
  private final Report report;

  TemplateCheck(StepGraph graph, Report report) {
    this.graph = graph;
    this.report = report;
  }

  void check(FlowDraft flow) {
    for (StepDraft step : flow.steps()) {
      if (step.params() != null) {
        walk(step.params(), step.paramsPath(), step);
      }
      if (step.repeat() != null) {
        walk(
            step.repeat().until().template(),
            FieldPaths.key(FieldPaths.key(step.path(), "repeat"), "until"),
            step);
      }
    }
    if (flow.output() != null) {
      walk(flow.output(), "output", null);
    }
  }

  /** {@code reader} is the step whose params these are, or null for the flow's output. */
  private void walk(JsonNode node, String path, StepDraft reader) {
    if (node.isTextual()) {
      checkText(node.textValue(), path, reader);
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        walk(node.get(i), FieldPaths.index(path, i), reader);
      }
    } else if (node.isObject()) {
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        String fieldPath = FieldPaths.key(path, field.getKey());
        if (field.getKey().contains(OPEN)) {
          report.atKey(fieldPath, "keys are not rendered: move the {{ … }} into a value");
        }
        walk(field.getValue(), fieldPath, reader);
      }
    }
  }

  private void checkText(String text, String path, StepDraft reader) {
    if (!text.contains(OPEN)) {
      return;
    }
    List<TemplatePath> expressions;
    try {
      expressions = Templates.expressions(TextNode.valueOf(text));
    } catch (TemplateException e) {
      report.atValue(path, "bad template: " + e.getMessage());
      return;
    }
    for (TemplatePath expression : expressions) {
      String problem = problemWith(expression, reader);
      if (problem != null) {
        report.atValue(path, problem);
      }
    }
  }

  private String problemWith(TemplatePath expression, StepDraft reader) {
    String shown = "{{ " + expression.text() + " }}";
    return switch (expression.root()) {
      case "run" -> runProblem(expression, shown, reader);
      case "steps" -> stepProblem(expression, shown, reader);
      default -> null;
    };
  }

  private static String runProblem(TemplatePath expression, String shown, StepDraft reader) {
    boolean single = expression.segments().size() == 1;
    if (single && Set.of("id", "attempt").contains(expression.segments().get(0))) {
      return null;
    }
    if (single && "iteration".equals(expression.segments().get(0))) {
      return reader != null && reader.repeat() != null
          ? null
          : shown + ": run.iteration exists only in a step with repeat";
    }
    return shown + ": run has only run.id, run.attempt and (in a step with repeat) run.iteration";
  }

  private String stepProblem(TemplatePath expression, String shown, StepDraft reader) {
    String step = expression.stepName();
    List<Object> segments = expression.segments();
    if (step == null || segments.size() < 2 || !"output".equals(segments.get(1))) {
      return shown + ": write steps.NAME.output to read a step's output";
    }
    if (!graph.contains(step)) {
      return shown + ": " + StepGraph.unknownStep(step, graph.names());
    }
    if (reader == null || reader.name() == null) {
      return null;
    }
    if (step.equals(reader.name())) {
      return reader.repeat() != null
          ? null
          : shown
              + ": a step cannot read its own output (only a step with repeat can: its last"
              + " iteration's)";
    }
    if (!graph.upstreamOf(reader.name()).contains(step)) {
      return shown
          + ": step '"
          + reader.name()
          + "' does not wait for '"
          + step
          + "', so its output may not exist yet; add '"
          + step
          + "' to needs (or to the needs of a step it waits for)";
    }
    return null;
  }
}

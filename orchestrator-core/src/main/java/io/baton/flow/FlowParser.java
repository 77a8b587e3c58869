package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.capability.CapabilityRegistry;
import io.baton.store.Hashing;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reads and validates flow files (YAML, or JSON, which YAML includes). Validation reports every
 * problem at once, each with the file, line, column and field it is about; the accepted shape and
 * the rules are described in the {@linkplain io.baton.flow package documentation}.
 *
 * <p>A flow's identity is the sha-256 of its canonical JSON: the document as written (not the
 * defaults the model fills in), keys sorted, no insignificant white space. Formatting, comments and
 * key order therefore do not change the hash, and parsing {@link Flow#canonicalJson()} again gives
 * the same hash and an equal definition. Thread-safe.
 */
public final class FlowParser {
  private final CapabilityRegistry capabilities;

  /** Checks capabilities, operations and params against {@code capabilities}. */
  public FlowParser(CapabilityRegistry capabilities) {
    this.capabilities = Objects.requireNonNull(capabilities, "capabilities");
  }

  /**
   * Parses and validates one flow.
   *
   * @param fileName names the source in problems; any text, such as a path
   * @throws FlowValidationException listing every problem found
   */
  public Flow parse(String text, String fileName) {
    Objects.requireNonNull(text, "text");
    String file = fileName == null ? "<flow>" : fileName;
    SourceReader.Result source = SourceReader.read(text, file);
    if (source.tree() == null) {
      throw new FlowValidationException(source.problems());
    }
    Report report = new Report(file, source.tree());
    source.problems().forEach(report::add);
    FlowDefinition definition = validate(source.tree(), report);
    report.throwIfAny();
    String canonical = CanonicalJson.write(source.tree().root());
    String hash = Hashing.sha256(canonical.getBytes(StandardCharsets.UTF_8));
    return new Flow(definition, hash, canonical);
  }

  /** The definition when the document is right; problems are reported either way. */
  private FlowDefinition validate(SourceTree tree, Report report) {
    FlowDraft draft = new FlowTreeReader(report).read(tree.root());
    if (draft == null) {
      return null;
    }
    StepGraph graph = StepGraph.resolve(draft.steps(), report);
    new TemplateCheck(graph, report).check(draft);
    CapabilityCheck capabilityCheck = new CapabilityCheck(capabilities, report);
    List<StepDefinition> steps = new ArrayList<>();
    for (StepDraft step : draft.steps()) {
      refuseDirectSelfRecursion(draft, step, report);
      String operation = capabilityCheck.check(step);
      if (step.name() != null && step.capability() != null) {
        steps.add(step.toDefinition(operation, graph.needsOf(step.name())));
      }
    }
    if (!report.isEmpty()) {
      return null;
    }
    return definition(draft, steps);
  }

  /**
   * A step that starts its own flow as a subflow creates runs without end (each run starts another
   * before it can finish); refused where it is written. Recursion through a template or another
   * flow is not seen here.
   */
  private static void refuseDirectSelfRecursion(FlowDraft draft, StepDraft step, Report report) {
    if (!"flow".equals(step.capability()) || step.params() == null || draft.name() == null) {
      return;
    }
    JsonNode target = step.params().get("flow");
    if (target != null && target.isTextual() && target.textValue().equals(draft.name())) {
      report.atValue(
          step.paramsPath() + ".flow",
          "step '"
              + step.name()
              + "' starts flow '"
              + draft.name()
              + "' itself as a subflow: every run would start another without end");
    }
  }

  private static FlowDefinition definition(FlowDraft draft, List<StepDefinition> steps) {
    return new FlowDefinition(
        draft.name(),
        draft.description(),
        draft.recovery(),
        draft.maxResumeAge(),
        draft.output(),
        steps,
        draft.trigger(),
        draft.retention());
  }
}

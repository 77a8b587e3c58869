package io.baton.flow;

import io.baton.capability.Capability;
import io.baton.capability.Capability.ParamProblem;
import io.baton.capability.CapabilityRegistry;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks that each step names a known capability and one of its operations, and lets the capability
 * check the step's static params.
 */
final class CapabilityCheck {
  private final CapabilityRegistry registry;
  private final Report report;

  CapabilityCheck(CapabilityRegistry registry, Report report) {
    this.registry = registry;
    this.report = report;
  }

  /** The operation the step runs: the one it names, else the capability's default, else null. */
  String check(StepDraft step) {
    if (step.capability() == null) {
      return null;
    }
    Optional<Capability> found = registry.find(step.capability());
    if (found.isEmpty()) {
      report.atValue(FieldPaths.key(step.path(), "capability"), unknownCapability(step));
      return null;
    }
    Capability capability = found.get();
    Choice operation = operation(step, capability);
    if (operation.valid()) {
      validateParams(step, capability, operation.name());
    }
    return operation.name();
  }

  /** The operation a step runs; {@code name} is null where the capability takes none. */
  private record Choice(boolean valid, String name) {
    static final Choice WRONG = new Choice(false, null);
  }

  private String unknownCapability(StepDraft step) {
    Set<String> known = new TreeSet<>();
    registry.all().forEach(capability -> known.add(capability.name()));
    return "unknown capability '"
        + step.capability()
        + "'"
        + Suggestions.didYouMean(step.capability(), known)
        + "; known capabilities: "
        + String.join(", ", known);
  }

  private Choice operation(StepDraft step, Capability capability) {
    String field = FieldPaths.key(step.path(), "operation");
    Set<String> operations = new TreeSet<>(capability.operations());
    String named = step.operation();
    if (operations.isEmpty()) {
      if (named != null) {
        report.atValue(field, "capability '" + capability.name() + "' takes no operation");
        return Choice.WRONG;
      }
      return new Choice(true, null);
    }
    if (named == null) {
      Optional<String> fallback = capability.defaultOperation();
      if (fallback.isEmpty()) {
        report.atValue(
            field,
            "missing 'operation': capability '"
                + capability.name()
                + "' needs one of: "
                + String.join(", ", operations));
      }
      return fallback.map(chosen -> new Choice(true, chosen)).orElse(Choice.WRONG);
    }
    if (!operations.contains(named)) {
      report.atValue(
          field,
          "unknown operation '"
              + named
              + "' for capability '"
              + capability.name()
              + "'"
              + Suggestions.didYouMean(named, operations)
              + "; its operations are: "
              + String.join(", ", operations));
      return Choice.WRONG;
    }
    return new Choice(true, named);
  }

  private void validateParams(StepDraft step, Capability capability, String operation) {
    List<ParamProblem> problems;
    try {
      problems = capability.validate(operation, step.params());
    } catch (RuntimeException bug) {
      report.atValue(
          step.paramsPath(),
          "capability '" + capability.name() + "' failed to check its params: " + bug);
      return;
    }
    for (ParamProblem problem : problems) {
      report.atValue(paramPath(step, problem.field()), problem.message());
    }
  }

  private static String paramPath(StepDraft step, String field) {
    if (field == null || field.isEmpty()) {
      return step.paramsPath();
    }
    return step.paramsPath() + (field.startsWith("[") ? "" : ".") + field;
  }
}

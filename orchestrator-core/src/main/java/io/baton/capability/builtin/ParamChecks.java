package io.baton.capability.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.capability.Capability.ParamProblem;
import io.baton.capability.ErrorCodes;
import io.baton.capability.StepOutcome;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Collects problems with a built-in's params. The same checks run on the template before any run
 * (where a value holding <code>{{</code> is not checked further) and on the rendered params before
 * an invocation. One use only.
 */
final class ParamChecks {
  private final String capability;
  private final List<ParamProblem> problems = new ArrayList<>();

  ParamChecks(String capability) {
    this.capability = capability;
  }

  /** Whether the value is a string that holds a template, so it is only known once rendered. */
  static boolean isTemplate(JsonNode value) {
    return value != null && value.isTextual() && value.textValue().contains("{{");
  }

  /** Whether params is a mapping; reports it if not, and reports keys {@code allowed} lacks. */
  boolean mapping(JsonNode params, List<String> allowed) {
    if (params == null || params.isNull() || params.isMissingNode()) {
      add("", "missing params: " + capability + " takes " + String.join(", ", allowed));
      return false;
    }
    if (!params.isObject()) {
      add(
          "",
          "params of "
              + capability
              + " must be a mapping with "
              + String.join(", ", allowed)
              + ", not "
              + describe(params));
      return false;
    }
    for (Iterator<String> names = params.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!allowed.contains(name)) {
        add(
            name,
            "unknown param '"
                + name
                + "' for "
                + capability
                + "; allowed params: "
                + String.join(", ", allowed));
      }
    }
    return true;
  }

  /** The string under {@code key}, or null when it is absent or not a string (reported). */
  String requiredText(JsonNode params, String key, String what) {
    JsonNode value = params.get(key);
    if (value == null || value.isNull()) {
      add(key, "missing param '" + key + "': " + capability + " needs " + what);
      return null;
    }
    if (!value.isTextual()) {
      add(key, key + " must be a string, not " + describe(value));
      return null;
    }
    return value.textValue();
  }

  void add(String field, String message) {
    problems.add(new ParamProblem(field, message));
  }

  List<ParamProblem> problems() {
    return List.copyOf(problems);
  }

  /** The outcome of an invocation whose rendered params are wrong: not retryable. */
  static StepOutcome invalid(String capability, List<ParamProblem> problems) {
    String detail =
        problems.stream()
            .map(
                problem ->
                    problem.field().isEmpty()
                        ? problem.message()
                        : problem.field() + ": " + problem.message())
            .collect(Collectors.joining("; "));
    return StepOutcome.failed(
        ErrorCodes.INVALID_PARAMS, "invalid params for " + capability + ": " + detail, false);
  }

  static String describe(JsonNode value) {
    if (value.isObject()) {
      return "a mapping";
    }
    if (value.isArray()) {
      return "a list";
    }
    if (value.isNumber()) {
      return "the number " + value.asText();
    }
    return value.isTextual() ? "the string '" + value.textValue() + "'" : value.asText();
  }
}

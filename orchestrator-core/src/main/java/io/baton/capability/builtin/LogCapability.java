package io.baton.capability.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.baton.capability.Capability;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * {@code log}: writes a message to the node's log through SLF4J, with the run id and step name in
 * the text and as key-value pairs {@code runId}, {@code step}. Params: {@code message} and {@code
 * level} (trace, debug, info, warn, error; default info). Output: {@code {message}}. A message that
 * renders to something other than a string is logged as JSON. With {@code emit} ({@code [{type,
 * data}]}) it emits those events when it completes.
 */
public final class LogCapability implements Capability {
  public static final String NAME = "log";
  private static final Logger log = LoggerFactory.getLogger(LogCapability.class);
  private static final List<String> PARAMS = List.of("message", "level", EmitParam.KEY);
  private static final List<String> LEVELS = List.of("trace", "debug", "info", "warn", "error");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<ParamProblem> validate(String operation, JsonNode params) {
    ParamChecks checks = new ParamChecks(NAME);
    if (checks.mapping(params, PARAMS)) {
      if (params.get("message") == null || params.get("message").isNull()) {
        checks.add("message", "missing param 'message': log needs a message to write");
      }
      JsonNode level = params.get("level");
      if (level != null && !ParamChecks.isTemplate(level) && !LEVELS.contains(level.asText())) {
        checks.add(
            "level",
            "'"
                + level.asText()
                + "' is not a log level; use one of: "
                + String.join(", ", LEVELS));
      }
    }
    EmitParam.check(params, checks);
    return checks.problems();
  }

  @Override
  public CompletionStage<StepOutcome> invoke(Invocation invocation) {
    return Outcomes.now(NAME, () -> write(invocation));
  }

  private StepOutcome write(Invocation invocation) {
    List<ParamProblem> problems = validate(null, invocation.params());
    if (!problems.isEmpty()) {
      return ParamChecks.invalid(NAME, problems);
    }
    JsonNode params = invocation.params();
    JsonNode rendered = params.get("message");
    String message = rendered.isTextual() ? rendered.textValue() : rendered.toString();
    String level = params.has("level") ? params.get("level").asText() : "info";
    log.atLevel(Level.valueOf(level.toUpperCase(Locale.ROOT)))
        .addKeyValue("runId", invocation.runId())
        .addKeyValue("step", invocation.stepName())
        .log("run {} step {}: {}", invocation.runId(), invocation.stepName(), message);
    return new StepOutcome.Completed(
        JsonNodeFactory.instance.objectNode().put("message", message), EmitParam.events(params));
  }
}

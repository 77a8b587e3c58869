package io.baton.capability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A capability that only tests know, registered in {@code META-INF/services} so that discovery can
 * be seen: operations {@code say} (the default) and {@code shout}; params {@code text} (required).
 */
public final class EchoCapability implements Capability {
  @Override
  public String name() {
    return "echo";
  }

  @Override
  public Set<String> operations() {
    return Set.of("say", "shout");
  }

  @Override
  public Optional<String> defaultOperation() {
    return Optional.of("say");
  }

  @Override
  public List<ParamProblem> validate(String operation, JsonNode params) {
    if (params == null || !params.has("text")) {
      return List.of(new ParamProblem("text", "echo needs text to echo"));
    }
    if (params.get("text").isNumber()) {
      return List.of(new ParamProblem("text", "echo echoes words, not numbers"));
    }
    return List.of();
  }

  @Override
  public CompletionStage<StepOutcome> invoke(Invocation invocation) {
    String text = invocation.params().get("text").asText();
    String said = "shout".equals(invocation.operation()) ? text.toUpperCase(Locale.ROOT) : text;
    return CompletableFuture.completedFuture(StepOutcome.completed(TextNode.valueOf(said)));
  }
}

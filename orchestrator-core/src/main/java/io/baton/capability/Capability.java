package io.baton.capability;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * Something a step can invoke: {@code capability: http, operation: post}. Built-ins are {@code
 * http}, {@code log}, {@code noop}, {@code sleep}, {@code approval} and {@code flow}; further ones
 * are found with {@link java.util.ServiceLoader} (register the class in {@code
 * META-INF/services/io.baton.capability.Capability}).
 *
 * <p>An invocation runs at least once per attempt and may run again after a crash: make side
 * effects idempotent with {@link Invocation#idempotencyKey()}, which is the same across retries and
 * recoveries. Implementations are thread-safe and must not block the caller's thread for long:
 * return a stage that completes later, or run blocking work on an executor of their own.
 */
public interface Capability {
  /** The name flows use, such as {@code http}. */
  String name();

  /** The operations it offers; empty (the default) when it takes no operation. */
  default Set<String> operations() {
    return Set.of();
  }

  /** The operation used when a step names none; empty when a step must name one. */
  default Optional<String> defaultOperation() {
    return Optional.empty();
  }

  /**
   * Checks a step's params before any run starts (templates are not rendered yet, so only check
   * what is static). Returns problems as {@code field: message} pairs, field relative to params.
   */
  default List<ParamProblem> validate(String operation, JsonNode params) {
    return List.of();
  }

  /** Runs one attempt. Failures are outcomes, not exceptions; an exception is a bug. */
  CompletionStage<StepOutcome> invoke(Invocation invocation);

  /** A problem with a step's static params. */
  record ParamProblem(String field, String message) {}
}

package io.baton.capability.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.capability.Capability;
import io.baton.capability.ErrorCodes;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * {@code http}: one HTTP call through a shared JDK {@link HttpClient}, never blocking the caller.
 * Operations {@code get}, {@code post}, {@code put}, {@code patch}, {@code delete} (a step must
 * name one). Params as {@link HttpParams} describes; a {@code body} is sent as JSON whenever the
 * step has one. Every request carries {@code Idempotency-Key: runId/stepName}, the same across
 * retries and recoveries, and, when the run is traced, {@code traceparent} (the invocation's: the
 * run's trace, the attempt's span as parent) unless the step sets that header itself. The
 * invocation's deadline bounds the wait for the response, and its cancellation aborts the request.
 * Outcomes as {@link HttpOutcomes} maps them. Thread-safe.
 */
public final class HttpCapability implements Capability {
  public static final String NAME = "http";
  public static final Set<String> OPERATIONS = Set.of("get", "post", "put", "patch", "delete");
  private final HttpClient client;

  /** Calls through {@code client}, which may be shared with other users. */
  public HttpCapability(HttpClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Set<String> operations() {
    return OPERATIONS;
  }

  @Override
  public List<ParamProblem> validate(String operation, JsonNode params) {
    return HttpParams.check(params);
  }

  @Override
  public CompletionStage<StepOutcome> invoke(Invocation invocation) {
    try {
      return send(invocation);
    } catch (RuntimeException bug) {
      return CompletableFuture.completedFuture(Outcomes.internalError(NAME, bug));
    }
  }

  private CompletionStage<StepOutcome> send(Invocation invocation) {
    StepOutcome refused = refusal(invocation);
    if (refused != null) {
      return CompletableFuture.completedFuture(refused);
    }
    Duration timeout = remaining(invocation);
    boolean expired = timeout != null && (timeout.isNegative() || timeout.isZero());
    HttpRequest request;
    try {
      request = HttpRequests.build(invocation, expired ? null : timeout);
    } catch (IllegalArgumentException e) {
      return CompletableFuture.completedFuture(
          StepOutcome.failed(ErrorCodes.INVALID_PARAMS, e.getMessage(), false));
    }
    if (expired) {
      return CompletableFuture.completedFuture(HttpOutcomes.deadlinePassedBeforeSending(request));
    }
    CompletableFuture<HttpResponse<String>> exchange =
        client.sendAsync(request, BodyHandlers.ofString());
    invocation.cancellation().onCancel(() -> exchange.cancel(true));
    return exchange.handle(
        (response, error) ->
            Outcomes.guarded(
                NAME,
                () ->
                    response != null
                        ? HttpOutcomes.of(request, response)
                        : HttpOutcomes.of(request, error, invocation)));
  }

  /** Why the invocation must not be sent at all, or null. */
  private StepOutcome refusal(Invocation invocation) {
    List<ParamProblem> problems = validate(invocation.operation(), invocation.params());
    if (!problems.isEmpty()) {
      return ParamChecks.invalid(NAME, problems);
    }
    if (invocation.operation() == null || !OPERATIONS.contains(invocation.operation())) {
      return StepOutcome.failed(
          ErrorCodes.INVALID_PARAMS,
          "http needs an operation, one of " + OPERATIONS + ", not " + invocation.operation(),
          false);
    }
    if (invocation.cancellation().isCancelled()) {
      return StepOutcome.failed(
          ErrorCodes.CANCELLED, "cancelled before the request was sent", false);
    }
    return null;
  }

  private static Duration remaining(Invocation invocation) {
    if (invocation.deadline() == null) {
      return null;
    }
    return Duration.between(invocation.clock().instant(), invocation.deadline());
  }
}

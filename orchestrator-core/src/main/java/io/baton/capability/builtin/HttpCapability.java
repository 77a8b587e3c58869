package io.baton.capability.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.capability.Capability;
import io.baton.capability.ErrorCodes;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import io.baton.time.NamedThreads;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code http}: one HTTP call through a shared JDK {@link HttpClient}, never blocking the caller.
 * Operations {@code get}, {@code post}, {@code put}, {@code patch}, {@code delete} (a step must
 * name one). Params as {@link HttpParams} describes; a {@code body} is sent as JSON whenever the
 * step has one. Every request carries {@code Idempotency-Key: runId/stepName} (or the step's {@code
 * idempotencyKey}), the same across retries and recoveries, and, when the run is traced, {@code
 * traceparent} (the invocation's: the run's trace, the attempt's span as parent) unless the step
 * sets that header itself. The invocation's deadline bounds the wait for the response, and its
 * cancellation aborts the request. Outcomes as {@link HttpOutcomes} maps them. Thread-safe.
 *
 * <p>Every request, and every redirect it follows ({@code followRedirects: true}, at most {@value
 * #MAX_REDIRECTS}), goes only where the {@link EgressPolicy} allows: its host is resolved first and
 * every address judged; a refused request is never sent and fails as {@code egress_denied}, not
 * retryable, naming the rule. The client must follow no redirects itself, so that no hop escapes
 * the policy.
 */
public final class HttpCapability implements Capability {
  public static final String NAME = "http";
  public static final Set<String> OPERATIONS = Set.of("get", "post", "put", "patch", "delete");
  public static final int MAX_REDIRECTS = 5;
  private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);
  private static final Executor RESOLVERS =
      Executors.newCachedThreadPool(NamedThreads.factory("http-resolve"));

  private final HttpClient client;
  private final EgressPolicy egress;
  private final HostResolver resolver;

  /**
   * Calls through {@code client} under the default egress policy ({@link EgressPolicy#defaults}).
   */
  public HttpCapability(HttpClient client) {
    this(client, EgressPolicy.defaults(), HostResolver.SYSTEM);
  }

  /**
   * Calls through {@code client}, which may be shared with other users, where {@code egress}
   * allows, judging the addresses {@code resolver} gives.
   *
   * @throws IllegalArgumentException the client follows redirects itself
   */
  public HttpCapability(HttpClient client, EgressPolicy egress, HostResolver resolver) {
    this.client = Objects.requireNonNull(client, "client");
    this.egress = Objects.requireNonNull(egress, "egress");
    this.resolver = Objects.requireNonNull(resolver, "resolver");
    if (client.followRedirects() != HttpClient.Redirect.NEVER) {
      throw new IllegalArgumentException(
          "the http capability's client must not follow redirects: the egress policy judges every"
              + " hop");
    }
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
    AtomicReference<CompletableFuture<?>> current = new AtomicReference<>();
    invocation
        .cancellation()
        .onCancel(
            () -> {
              CompletableFuture<?> inFlight = current.get();
              if (inFlight != null) {
                inFlight.cancel(true);
              }
            });
    boolean follow = invocation.params().path("followRedirects").asBoolean(false);
    return exchange(invocation, request, follow ? MAX_REDIRECTS : 0, current);
  }

  /** Judges the request's destination, then sends it; follows up to {@code hopsLeft} redirects. */
  private CompletableFuture<StepOutcome> exchange(
      Invocation invocation,
      HttpRequest request,
      int hopsLeft,
      AtomicReference<CompletableFuture<?>> current) {
    return judge(request)
        .thenCompose(
            refused -> {
              if (refused.isPresent()) {
                return CompletableFuture.completedFuture(refused.get());
              }
              if (invocation.cancellation().isCancelled()) {
                return CompletableFuture.completedFuture(
                    StepOutcome.failed(
                        ErrorCodes.CANCELLED, "cancelled before the request was sent", false));
              }
              CompletableFuture<HttpResponse<String>> sent =
                  client.sendAsync(request, BodyHandlers.ofString());
              current.set(sent);
              return sent.handle((response, error) -> new Exchanged(response, error))
                  .thenCompose(done -> settle(invocation, request, done, hopsLeft, current));
            });
  }

  private record Exchanged(HttpResponse<String> response, Throwable error) {}

  private CompletableFuture<StepOutcome> settle(
      Invocation invocation,
      HttpRequest request,
      Exchanged done,
      int hopsLeft,
      AtomicReference<CompletableFuture<?>> current) {
    HttpResponse<String> response = done.response();
    if (response != null && hopsLeft > 0 && REDIRECTS.contains(response.statusCode())) {
      Optional<String> location = response.headers().firstValue("location");
      if (location.isPresent()) {
        HttpRequest next;
        try {
          next = Redirects.follow(request, response.statusCode(), location.get());
        } catch (IllegalArgumentException e) {
          return CompletableFuture.completedFuture(
              StepOutcome.failed(
                  ErrorCodes.HTTP_4XX,
                  HttpOutcomes.describe(request) + " redirected to " + e.getMessage(),
                  false));
        }
        return exchange(invocation, next, hopsLeft - 1, current);
      }
    }
    return CompletableFuture.completedFuture(
        Outcomes.guarded(
            NAME,
            () ->
                response != null
                    ? HttpOutcomes.of(request, response)
                    : HttpOutcomes.of(request, done.error(), invocation)));
  }

  /** The refusal of the request's destination, or empty; resolves names off the caller. */
  private CompletableFuture<Optional<StepOutcome>> judge(HttpRequest request) {
    URI uri = request.uri();
    String host = bare(uri.getHost());
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return egress
                .refusal(host, resolver.resolve(host))
                .map(
                    why ->
                        StepOutcome.failed(
                            ErrorCodes.EGRESS_DENIED,
                            HttpOutcomes.describe(request)
                                + " refused by the egress policy: "
                                + why,
                            false));
          } catch (UnknownHostException e) {
            return Optional.of(
                StepOutcome.failed(
                    ErrorCodes.UNAVAILABLE,
                    HttpOutcomes.describe(request) + " could not resolve " + host,
                    true));
          }
        },
        RESOLVERS);
  }

  private static String bare(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
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

package io.baton.node.http;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.baton.BatonException;
import io.baton.engine.FlowNotFoundException;
import io.baton.engine.RunConflictException;
import io.baton.engine.RunNotFoundException;
import io.baton.engine.StepNotFoundException;
import io.baton.flow.FlowValidationException;
import io.baton.lease.LeaseUnavailableException;
import io.baton.node.auth.AuthenticationFailedException;
import io.baton.store.BlobTooLargeException;
import io.baton.store.KeyNameTakenException;
import io.baton.store.StoreUnavailableException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns every exception a request ends with into a problem response: client mistakes into 4xx with
 * what was wrong, outages of the store or lease service into 503, anything else into a 500 that
 * says nothing about internals (the node's log has the details, with the run id).
 */
final class ProblemMapper {
  private static final Logger log = LoggerFactory.getLogger(ProblemMapper.class);

  private final long maxBodySize;

  ProblemMapper(long maxBodySize) {
    this.maxBodySize = maxBodySize;
  }

  void register(RoutesConfig routes) {
    routes.exception(Exception.class, this::handle);
    // Javalin answers its own HTTP exceptions (404, 405, 413) in plain text unless mapped by type.
    routes.exception(HttpResponseException.class, this::handle);
  }

  void handle(Exception exception, Context ctx) {
    Throwable failure = unwrap(exception);
    Problem problem = map(failure, ctx);
    if (failure instanceof HttpResponseException response
        && response.getDetails().containsKey("availableMethods")) {
      ctx.header("Allow", response.getDetails().get("availableMethods"));
    }
    if (problem.status() == 503) {
      ctx.header("Retry-After", "1");
    }
    if (problem.status() == 413) {
      // the rest of the body is not read: the client must not send its next request on this
      // connection, which the server closes
      ctx.header("Connection", "close");
    }
    if (problem.status() == 401) {
      ctx.header("WWW-Authenticate", "Bearer realm=\"baton\"");
    }
    problem.send(ctx);
  }

  static Throwable unwrap(Throwable failure) {
    Throwable current = failure;
    while ((current instanceof CompletionException || current instanceof ExecutionException)
        && current.getCause() != null) {
      current = current.getCause();
    }
    return current;
  }

  private Problem map(Throwable failure, Context ctx) {
    if (failure instanceof AuthenticationFailedException unauthenticated) {
      return Problem.of(401, "unauthenticated", "Not authenticated", unauthenticated.getMessage());
    }
    if (failure instanceof AccessDeniedException denied) {
      return Problem.of(403, "forbidden", "Not allowed", denied.getMessage());
    }
    if (failure instanceof FlowValidationException invalid) {
      return invalidFlow(invalid);
    }
    if (failure instanceof InvalidRequestException invalid) {
      return Problem.of(400, "invalid-request", "Invalid request", invalid.getMessage());
    }
    if (failure instanceof JsonProcessingException malformed) {
      return Problem.of(400, "malformed-json", "Malformed JSON", describe(malformed));
    }
    if (failure instanceof RunNotFoundException notFound) {
      return Problem.of(404, "run-not-found", "Run not found", notFound.getMessage());
    }
    if (failure instanceof StepNotFoundException notFound) {
      return Problem.of(404, "step-not-found", "Step not found", notFound.getMessage());
    }
    if (failure instanceof FlowNotFoundException notFound) {
      return Problem.of(404, "flow-not-found", "Flow not found", notFound.getMessage());
    }
    if (failure instanceof RunConflictException conflict) {
      return Problem.of(
          409, "run-conflict", "Not allowed in the run's status", conflict.getMessage());
    }
    if (failure instanceof KeyNotFoundException notFound) {
      return Problem.of(404, "key-not-found", "Key not found", notFound.getMessage());
    }
    if (failure instanceof FileKeyException fileKey) {
      return Problem.of(409, "file-key", "Key of the keys file", fileKey.getMessage());
    }
    if (failure instanceof KeyNameTakenException taken) {
      return Problem.of(409, "key-conflict", "Key exists", taken.getMessage());
    }
    if (failure instanceof PayloadTooLargeException tooLarge) {
      return Problem.of(413, "too-large", "Request too large", tooLarge.getMessage());
    }
    if (failure instanceof BlobTooLargeException tooLarge) {
      return Problem.of(413, "body-too-large", "Request body too large", tooLarge.getMessage());
    }
    if (failure instanceof StoreUnavailableException
        || failure instanceof LeaseUnavailableException) {
      return Problem.of(
          503, "unavailable", "Service unavailable", failure.getMessage() + "; try again shortly");
    }
    if (failure instanceof HttpResponseException response) {
      return httpProblem(response, ctx);
    }
    return unexpected(failure, ctx);
  }

  private static Problem invalidFlow(FlowValidationException invalid) {
    int count = invalid.problems().size();
    String first = count == 0 ? "" : ": " + invalid.problems().get(0);
    String detail = "The flow is invalid (" + count + (count == 1 ? " problem" : " problems") + ")";
    return Problem.of(400, "invalid-flow", "Invalid flow", detail + first)
        .withErrors(invalid.problems());
  }

  private static String describe(JsonProcessingException malformed) {
    JsonLocation where = malformed.getLocation();
    String at =
        where == null ? "" : " at line " + where.getLineNr() + ", column " + where.getColumnNr();
    return "The request body is not valid JSON" + at + ": " + malformed.getOriginalMessage();
  }

  private Problem httpProblem(HttpResponseException response, Context ctx) {
    int status = response.getStatus();
    return switch (status) {
      case 404 ->
          Problem.of(
              404, "not-found", "Not found", "No resource at " + ctx.method() + " " + ctx.path());
      case 405 ->
          Problem.of(
              405,
              "method-not-allowed",
              "Method not allowed",
              ctx.method() + " is not allowed on " + ctx.path());
      case 406 -> Problem.of(406, "not-acceptable", "Not acceptable", response.getMessage());
      case 413 ->
          Problem.of(
              413,
              "body-too-large",
              "Request body too large",
              "The request body is larger than the limit of "
                  + maxBodySize
                  + " bytes (http.maxBodySize)");
      case 415 ->
          Problem.of(
              415, "unsupported-media-type", "Unsupported media type", response.getMessage());
      default ->
          status >= 500
              ? unexpected(response, ctx)
              : Problem.of(status, "http-" + status, response.getMessage(), response.getMessage());
    };
  }

  private static Problem unexpected(Throwable failure, Context ctx) {
    String runId = runIdOf(failure, ctx);
    log.error(
        "{} {} failed unexpectedly{}",
        ctx.method(),
        ctx.path(),
        runId == null ? "" : " (run " + runId + ")",
        failure);
    return Problem.of(
        500,
        "internal-error",
        "Internal error",
        "The node could not complete "
            + ctx.method()
            + " "
            + ctx.path()
            + "; its log has the details");
  }

  private static String runIdOf(Throwable failure, Context ctx) {
    if (failure instanceof BatonException baton && baton.runId().isPresent()) {
      return baton.runId().get().toString();
    }
    return ctx.pathParamMap().get("id");
  }
}

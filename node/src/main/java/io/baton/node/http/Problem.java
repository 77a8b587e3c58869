package io.baton.node.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.baton.flow.FlowProblem;
import io.javalin.http.Context;
import java.util.List;

/**
 * An error response as RFC 9457 describes it ({@code application/problem+json}): a stable {@code
 * type} to branch on, a {@code title} per type, the HTTP {@code status} and a {@code detail} for
 * people. Flow validation problems list every {@code errors} entry with its file, line, column and
 * field. Never carries a stack trace.
 */
public record Problem(
    String type,
    String title,
    int status,
    String detail,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<FlowProblem> errors) {
  public static final String CONTENT_TYPE = "application/problem+json";
  private static final String TYPE_PREFIX = "urn:baton:problem:";

  /** A problem of type {@code urn:baton:problem:<slug>}. */
  public static Problem of(int status, String slug, String title, String detail) {
    return new Problem(TYPE_PREFIX + slug, title, status, detail, null);
  }

  public Problem withErrors(List<FlowProblem> errors) {
    return new Problem(type, title, status, detail, List.copyOf(errors));
  }

  void send(Context ctx) {
    ctx.status(status).contentType(CONTENT_TYPE).result(Json.write(this));
  }
}

package io.baton.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.flow.FlowProblem;
import io.baton.flow.FlowValidationException;
import io.baton.node.http.Reply;
import java.util.List;

/**
 * What every fuzz target asserts about an answer. A violation is thrown as an {@link
 * AssertionError}, which Jazzer reports as a finding with the input that caused it.
 */
final class FuzzChecks {
  private FuzzChecks() {}

  private static final List<String> STACK_TRACE_MARKS =
      List.of("\tat ", "Exception", "java.lang.", "io.baton.");

  /**
   * Below 500; an error is a problem body whose detail says what is wrong; no stack trace. {@code
   * what} is the request as sent: a mark of a stack trace that the request itself carries may be
   * echoed back by a detail that quotes the bad value (the fuzzer's first finding was exactly that,
   * a time field holding the word "Exception").
   */
  static void answered(String what, Reply reply) {
    if (reply.status() >= 500) {
      throw new AssertionError(what + " -> " + reply.status() + ": " + reply.body());
    }
    for (String mark : STACK_TRACE_MARKS) {
      if (reply.body().contains(mark) && !what.contains(mark)) {
        throw new AssertionError(what + " -> a stack trace or exception name: " + reply.body());
      }
    }
    if (reply.status() >= 400) {
      if (!reply.contentType().startsWith("application/problem+json")) {
        throw new AssertionError(what + " -> " + reply.status() + " without a problem body");
      }
      JsonNode detail = reply.json().get("detail");
      if (detail == null || detail.asText().isBlank()) {
        throw new AssertionError(what + " -> " + reply.status() + " whose detail is empty");
      }
    }
  }

  /** A refused flow names the file and says, for every problem, what is wrong. */
  static void refusedWithProblems(FlowValidationException refused, String file) {
    if (refused.problems().isEmpty()) {
      throw new AssertionError("refused without a problem: " + refused.getMessage());
    }
    for (FlowProblem problem : refused.problems()) {
      if (!file.equals(problem.file()) || problem.message().isBlank()) {
        throw new AssertionError("a problem that does not say where or what: " + problem);
      }
    }
  }
}

package io.baton.node.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.flow.FlowProblem;
import io.baton.flow.FlowValidationException;
import io.baton.node.http.Reply;

/**
 * What every fuzz target asserts about an answer. A violation is thrown as an {@link
 * AssertionError}, which Jazzer reports as a finding with the input that caused it.
 */
final class FuzzChecks {
  private FuzzChecks() {}

  /** Below 500; an error is a problem body whose detail says what is wrong; no stack trace. */
  static void answered(String what, Reply reply) {
    if (reply.status() >= 500) {
      throw new AssertionError(what + " -> " + reply.status() + ": " + reply.body());
    }
    if (reply.body().contains("\tat ") || reply.body().contains("Exception")) {
      throw new AssertionError(what + " -> a stack trace or exception name: " + reply.body());
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

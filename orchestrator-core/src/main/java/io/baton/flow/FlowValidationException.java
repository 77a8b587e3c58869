package io.baton.flow;

import io.baton.BatonException;
import java.util.List;
import java.util.stream.Collectors;

/** A flow file is invalid; every problem names the file, line and field. */
public class FlowValidationException extends BatonException {
  private final List<FlowProblem> problems;

  public FlowValidationException(List<FlowProblem> problems) {
    super(
        "invalid flow:\n"
            + problems.stream().map(FlowProblem::toString).collect(Collectors.joining("\n")));
    this.problems = List.copyOf(problems);
  }

  public List<FlowProblem> problems() {
    return problems;
  }
}

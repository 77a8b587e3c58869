package io.baton.flow;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Collects every problem found in one flow file, each placed at the node it is about. */
final class Report {
  private final String file;
  private final SourceTree tree;
  private final List<FlowProblem> problems = new ArrayList<>();

  Report(String file, SourceTree tree) {
    this.file = file;
    this.tree = tree;
  }

  /** A problem with the value at {@code field}. */
  void atValue(String field, String message) {
    add(tree.valueAt(field), field, message);
  }

  /** A problem with the key of {@code field} (an unknown or repeated key). */
  void atKey(String field, String message) {
    add(tree.keyAt(field), field, message);
  }

  void add(FlowProblem problem) {
    problems.add(problem);
  }

  void add(Position position, String field, String message) {
    problems.add(new FlowProblem(file, position.line(), position.column(), field, message));
  }

  boolean isEmpty() {
    return problems.isEmpty();
  }

  /** The problems in file order (line, then column, then the order they were found). */
  List<FlowProblem> problems() {
    List<FlowProblem> sorted = new ArrayList<>(problems);
    sorted.sort(Comparator.comparingInt(FlowProblem::line).thenComparingInt(FlowProblem::column));
    return List.copyOf(sorted);
  }

  void throwIfAny() {
    if (!problems.isEmpty()) {
      throw new FlowValidationException(problems());
    }
  }
}

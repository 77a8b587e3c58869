package io.baton.flow;

/**
 * One thing wrong with a flow file: where it is and what is wrong.
 *
 * @param field the path of the offending field, such as {@code steps[2].retry.delay}
 */
public record FlowProblem(String file, int line, int column, String field, String message) {
  @Override
  public String toString() {
    return file + ":" + line + ":" + column + ": " + field + ": " + message;
  }
}

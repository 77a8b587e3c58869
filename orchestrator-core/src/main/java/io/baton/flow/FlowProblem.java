package io.baton.flow;

/**
 * One thing wrong with a flow file: where it is and what is wrong.
 *
 * @param field the path of the offending field, such as {@code steps[2].retry.delay}; empty for the
 *     document as a whole
 */
public record FlowProblem(String file, int line, int column, String field, String message) {
  @Override
  public String toString() {
    String where = file + ":" + line + ":" + column + ": ";
    return field.isEmpty() ? where + message : where + field + ": " + message;
  }
}

package io.baton.store;

import io.baton.BatonException;

/** A JSON path predicate could not be parsed; says where (1-based) and what was expected. */
public class InvalidJsonPathException extends BatonException {
  private final int position;
  private final String reason;

  public InvalidJsonPathException(int position, String reason) {
    super("at position " + position + ": " + reason);
    this.position = position;
    this.reason = reason;
  }

  /** The 1-based position in the expression where parsing stopped. */
  public int position() {
    return position;
  }

  /** What was wrong there, such as {@code expected ==, !=, <, <=, > or >=}. */
  public String reason() {
    return reason;
  }
}

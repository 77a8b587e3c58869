package io.baton.flow;

/** A 1-based line and column in a flow file. */
record Position(int line, int column) {
  static final Position START = new Position(1, 1);
}

package io.baton.node.cli;

/** What one {@code baton} invocation printed and exited with. */
record CliResult(int exitCode, String out, String err) {
  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}

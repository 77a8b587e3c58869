package io.baton.node.cli;

/** A client command failed; its message goes to stderr and the process exits with the code. */
public class CommandFailedException extends RuntimeException {
  private final int exitCode;

  public CommandFailedException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}

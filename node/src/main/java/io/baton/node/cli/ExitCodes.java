package io.baton.node.cli;

/** What {@code baton}'s client commands exit with, so that scripts can branch on it. */
public final class ExitCodes {
  public static final int OK = 0;

  /** Anything else that went wrong, a 400 from the server included. */
  public static final int ERROR = 1;

  /** Bad usage: an unknown command, option or {@code -o} format, a malformed argument. */
  public static final int USAGE = 2;

  /** The run (or flow) does not exist. */
  public static final int NOT_FOUND = 3;

  /** The run's status does not allow the command. */
  public static final int CONFLICT = 4;

  /** Nothing answers at the server URL. */
  public static final int SERVER_NOT_RUNNING = 5;

  /** {@code submit --wait}, {@code run --follow}: the run ended FAILED. */
  public static final int RUN_FAILED = 7;

  /** {@code submit --wait}, {@code run --follow}: the run ended CANCELLED. */
  public static final int RUN_CANCELLED = 8;

  /** The server refused the caller: no or an unknown token (401), or not allowed (403). */
  public static final int DENIED = 9;

  private ExitCodes() {}
}

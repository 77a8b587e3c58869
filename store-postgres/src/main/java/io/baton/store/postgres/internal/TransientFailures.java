package io.baton.store.postgres.internal;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.util.Set;

/**
 * Tells failures that go away by themselves (the connection dropped, the server is restarting, a
 * serialization failure or deadlock victim) from those that do not (a constraint violation, a
 * syntax error, a permission problem). Only the first kind is retried.
 */
public final class TransientFailures {
  /**
   * SQLSTATEs that mean "try again": serialization failure, deadlock, admin shutdown, crash
   * shutdown, cannot connect now (starting up or in recovery), too many connections. The whole
   * class 08 (connection exception) is transient too.
   */
  private static final Set<String> TRANSIENT_STATES =
      Set.of("40001", "40P01", "57P01", "57P02", "57P03", "53300");

  private TransientFailures() {}

  /** Whether {@code failure}, or a cause of it, is transient. */
  public static boolean isTransient(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException sql && isTransientSql(sql)) {
        return true;
      }
      if (cause instanceof IOException) {
        return true;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }

  /** The SQLSTATE of the first SQL exception in the cause chain, or null. */
  public static String sqlState(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException sql && sql.getSQLState() != null) {
        return sql.getSQLState();
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return null;
  }

  private static boolean isTransientSql(SQLException sql) {
    if (sql instanceof SQLTransientException) {
      return true;
    }
    String state = sql.getSQLState();
    return state != null && (state.startsWith("08") || TRANSIENT_STATES.contains(state));
  }
}

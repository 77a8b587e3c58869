package io.baton.store.postgres.internal;

import io.baton.journal.AppendRequest;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunCreated;
import io.baton.store.DuplicateIdempotencyKeyException;
import io.baton.store.StoreException;
import io.baton.store.StoreUnavailableException;
import io.baton.store.postgres.DuplicateStepCompletionException;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * What PostgreSQL's refusal of one request's data means: a constraint it violated or a value it
 * cannot store. Such refusals concern the request, not the database, so a batch that meets one is
 * split to find the request, which alone is refused.
 */
public final class Refusals {
  static final String IDEMPOTENCY_KEY_CONSTRAINT = "runs_idempotency_key_key";
  static final String STEP_COMPLETED_CONSTRAINT = "journal_step_completed_once";

  private Refusals() {}

  /** Whether {@code failure} is the database refusing data (SQLSTATE class 22 or 23). */
  public static boolean isDataRefusal(RuntimeException failure) {
    if (failure instanceof StoreUnavailableException || !(failure instanceof StoreException)) {
      return false;
    }
    String state = TransientFailures.sqlState(failure);
    return state != null && (state.startsWith("22") || state.startsWith("23"));
  }

  /**
   * Whether the refusal is a unique key that a concurrent transaction may have taken first (a retry
   * then sees the other's row and decides properly).
   */
  public static boolean mayBeARace(RuntimeException failure) {
    return "23505".equals(TransientFailures.sqlState(failure))
        && !STEP_COMPLETED_CONSTRAINT.equals(constraint(failure));
  }

  /** The exception that explains the refusal of {@code request}. */
  public static RuntimeException explain(AppendRequest request, RuntimeException failure) {
    String constraint = constraint(failure);
    if (IDEMPOTENCY_KEY_CONSTRAINT.equals(constraint)) {
      for (JournalEntry entry : request.entries()) {
        if (entry.event() instanceof RunCreated created && created.idempotencyKey() != null) {
          return new DuplicateIdempotencyKeyException(entry.runId(), created.idempotencyKey());
        }
      }
    }
    String detail = TransientRetry.rootMessage(failure);
    if (STEP_COMPLETED_CONSTRAINT.equals(constraint)) {
      return new DuplicateStepCompletionException(request.rootRunId(), detail, failure);
    }
    return new StoreException(
        "PostgreSQL refused the entries of run " + request.rootRunId() + ": " + detail,
        request.rootRunId(),
        failure);
  }

  private static String constraint(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof PSQLException psql) {
        ServerErrorMessage message = psql.getServerErrorMessage();
        return message == null ? null : message.getConstraint();
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return null;
  }
}

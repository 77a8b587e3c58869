package io.baton.store.postgres;

import io.baton.store.StoreException;
import java.util.UUID;

/**
 * An append carried a second completion of a step the journal already holds a completion of: the
 * store's unique key per run and step refused it, and nothing of the request was written.
 */
public class DuplicateStepCompletionException extends StoreException {
  public DuplicateStepCompletionException(UUID rootRunId, String detail, Throwable cause) {
    super(
        "the journal of run "
            + rootRunId
            + " already holds a completion of this step; a step completes once ("
            + detail
            + ")",
        rootRunId,
        cause);
  }
}

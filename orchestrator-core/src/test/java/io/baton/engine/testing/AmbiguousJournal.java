package io.baton.engine.testing;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.ForwardingJournal;
import io.baton.store.StoreUnavailableException;
import java.util.List;

/**
 * A journal whose next append that creates a run is written and then reported as failed, as when
 * the reply to a COMMIT is lost: an ambiguous commit. Thread-safe.
 */
public final class AmbiguousJournal extends ForwardingJournal {
  private volatile boolean armed;

  public AmbiguousJournal(ExecutionJournal delegate) {
    super(delegate);
  }

  /** The next append that creates a run lands, and its caller is told it failed. */
  public void failNextCreation() {
    armed = true;
  }

  @Override
  public List<AppendResult> appendAll(List<AppendRequest> requests) {
    if (armed && requests.stream().anyMatch(AppendRequest::createsRoot)) {
      armed = false;
      delegate.appendAll(requests);
      throw new StoreUnavailableException("simulated: the reply to the commit was lost", null);
    }
    return delegate.appendAll(requests);
  }
}

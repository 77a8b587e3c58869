package io.baton.engine.testing;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.ForwardingJournal;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import io.baton.journal.RunStatusChanged;
import java.util.List;
import java.util.function.Consumer;

/**
 * A journal that calls a hook just before it writes an append that parks a root (RUNNING to
 * WAITING), so a test can make something happen while a park is in flight. Thread-safe.
 */
public final class ParkHookJournal extends ForwardingJournal {
  private volatile Consumer<AppendRequest> hook = request -> {};

  public ParkHookJournal(ExecutionJournal delegate) {
    super(delegate);
  }

  /** Calls {@code hook} once, before the next park is written. */
  public void beforeNextPark(Consumer<AppendRequest> hook) {
    this.hook = hook;
  }

  @Override
  public List<AppendResult> appendAll(List<AppendRequest> requests) {
    for (AppendRequest request : requests) {
      if (parks(request)) {
        Consumer<AppendRequest> once = hook;
        hook = r -> {};
        once.accept(request);
      }
    }
    return delegate.appendAll(requests);
  }

  private static boolean parks(AppendRequest request) {
    for (JournalEntry entry : request.entries()) {
      if (entry.isRootEntry()
          && entry.event() instanceof RunStatusChanged changed
          && changed.to() == RunStatus.WAITING) {
        return true;
      }
    }
    return false;
  }
}

package io.baton.engine.testing;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.ForwardingJournal;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunCompleted;
import io.baton.journal.RunStatus;
import io.baton.journal.RunStatusChanged;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A journal that calls a hook just before it writes a chosen append (one that parks a root, one
 * that finishes it), so a test can make something happen while that append is in flight.
 * Thread-safe.
 */
public final class AppendHookJournal extends ForwardingJournal {
  /** An append that parks a root (RUNNING to WAITING). */
  public static final Predicate<AppendRequest> PARKS =
      request -> anyRootEntry(request, AppendHookJournal::parks);

  /** An append that finishes a root. */
  public static final Predicate<AppendRequest> FINISHES =
      request -> anyRootEntry(request, entry -> entry.event() instanceof RunCompleted);

  private volatile Predicate<AppendRequest> when = request -> false;
  private volatile Consumer<AppendRequest> hook = request -> {};

  public AppendHookJournal(ExecutionJournal delegate) {
    super(delegate);
  }

  /** Calls {@code hook} once, before the next append that {@code when} accepts is written. */
  public void beforeNext(Predicate<AppendRequest> when, Consumer<AppendRequest> hook) {
    this.hook = hook;
    this.when = when;
  }

  @Override
  public List<AppendResult> appendAll(List<AppendRequest> requests) {
    for (AppendRequest request : requests) {
      if (when.test(request)) {
        Consumer<AppendRequest> once = hook;
        when = r -> false;
        once.accept(request);
      }
    }
    return delegate.appendAll(requests);
  }

  private static boolean anyRootEntry(AppendRequest request, Predicate<JournalEntry> test) {
    return request.entries().stream().anyMatch(entry -> entry.isRootEntry() && test.test(entry));
  }

  private static boolean parks(JournalEntry entry) {
    return entry.event() instanceof RunStatusChanged changed && changed.to() == RunStatus.WAITING;
  }
}

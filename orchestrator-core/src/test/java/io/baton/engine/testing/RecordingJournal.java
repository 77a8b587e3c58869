package io.baton.engine.testing;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.ForwardingJournal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A journal that remembers every append it accepted, in order. Thread-safe. */
public final class RecordingJournal extends ForwardingJournal {
  public final List<AppendRequest> accepted = new CopyOnWriteArrayList<>();

  public RecordingJournal(ExecutionJournal delegate) {
    super(delegate);
  }

  @Override
  public synchronized List<AppendResult> appendAll(List<AppendRequest> requests) {
    List<AppendResult> results = delegate.appendAll(requests);
    List<AppendRequest> written = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      if (results.get(i) instanceof AppendResult.Appended appended && !appended.alreadyPresent()) {
        written.add(requests.get(i));
      }
    }
    accepted.addAll(written);
    return results;
  }
}

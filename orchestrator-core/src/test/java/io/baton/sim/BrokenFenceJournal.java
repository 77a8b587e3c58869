package io.baton.sim;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.ForwardingJournal;
import io.baton.journal.JournalEntry;
import java.util.ArrayList;
import java.util.List;

/**
 * A deliberately broken journal that lets a stale owner write, to show that the simulation catches
 * a broken fence. In Baton a stale owner is stopped twice: by the token check and by the sequence
 * check (its append names the next sequence, which the new owner's claim already took). So this
 * journal skips both for a stale writer, as a store that trusted the caller and assigned sequence
 * numbers itself would: it writes the append under the current token at the end of the journal.
 */
final class BrokenFenceJournal extends ForwardingJournal {
  BrokenFenceJournal(ExecutionJournal delegate) {
    super(delegate);
  }

  @Override
  public List<AppendResult> appendAll(List<AppendRequest> requests) {
    List<AppendResult> results = new ArrayList<>();
    for (AppendRequest request : requests) {
      results.add(delegate.appendAll(List.of(unfenced(request))).get(0));
    }
    return results;
  }

  private AppendRequest unfenced(AppendRequest request) {
    long current = delegate.currentToken(request.rootRunId()).orElse(request.token());
    if (request.claims() || request.createsRoot() || current == request.token()) {
      return request;
    }
    long seq = delegate.latestSequence(request.rootRunId());
    List<JournalEntry> moved = new ArrayList<>();
    for (JournalEntry entry : request.entries()) {
      moved.add(
          new JournalEntry(
              entry.runId(), entry.rootRunId(), ++seq, entry.timestamp(), entry.event()));
    }
    return new AppendRequest(request.rootRunId(), current, moved);
  }
}

package io.baton.sim;

import io.baton.engine.testing.ForwardingJournal;
import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ExecutionJournal;
import java.util.ArrayList;
import java.util.List;

/**
 * A deliberately broken journal that skips the token check (it writes every append under the run's
 * current token), to show that the simulation catches a broken fence.
 */
final class BrokenFenceJournal extends ForwardingJournal {
  BrokenFenceJournal(ExecutionJournal delegate) {
    super(delegate);
  }

  @Override
  public List<AppendResult> appendAll(List<AppendRequest> requests) {
    List<AppendRequest> unfenced = new ArrayList<>();
    for (AppendRequest request : requests) {
      long current = delegate.currentToken(request.rootRunId()).orElse(request.token());
      boolean bypass = !request.claims() && !request.createsRoot() && current != request.token();
      unfenced.add(
          bypass ? new AppendRequest(request.rootRunId(), current, request.entries()) : request);
    }
    return delegate.appendAll(unfenced);
  }
}

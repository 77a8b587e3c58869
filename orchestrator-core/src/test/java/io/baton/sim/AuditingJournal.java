package io.baton.sim;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.ForwardingJournal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Watches every append the journal accepts and checks, independently of the journal, that none was
 * accepted under a token older than the run's current one. It keeps its own record of each root's
 * fence from the claims it has seen.
 */
final class AuditingJournal extends ForwardingJournal {
  private final Map<UUID, Long> fences = new HashMap<>();
  final List<String> violations = new ArrayList<>();

  AuditingJournal(ExecutionJournal delegate) {
    super(delegate);
  }

  @Override
  public List<AppendResult> appendAll(List<AppendRequest> requests) {
    List<AppendResult> results = delegate.appendAll(requests);
    for (int i = 0; i < results.size(); i++) {
      if (results.get(i) instanceof AppendResult.Appended appended && !appended.alreadyPresent()) {
        audit(requests.get(i));
      }
    }
    return results;
  }

  private void audit(AppendRequest request) {
    Long fence = fences.get(request.rootRunId());
    if (fence == null) {
      fences.put(request.rootRunId(), request.token());
      return;
    }
    boolean admitted = request.claims() ? request.token() >= fence : request.token() == fence;
    if (!admitted) {
      violations.add(
          "append to run "
              + request.rootRunId()
              + " at seq "
              + request.firstSeq()
              + " was accepted under token "
              + request.token()
              + " while the run's token was "
              + fence);
    }
    if (request.claims()) {
      fences.put(request.rootRunId(), Math.max(fence, request.token()));
    }
  }
}

package io.baton.sim;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.ForwardingJournal;
import io.baton.journal.replay.Replay;
import io.baton.journal.replay.TreeState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiConsumer;

/**
 * Watches every append the journal accepts and checks, independently of the journal, that none was
 * accepted under a token older than the run's current one. It keeps its own record of each root's
 * fence from the claims it has seen.
 */
final class AuditingJournal extends ForwardingJournal {
  private final Map<UUID, Long> fences = new HashMap<>();
  private final Map<UUID, Set<Long>> claimedWith = new HashMap<>();
  private BiConsumer<AppendRequest, TreeState> claimObserver = (request, before) -> {};
  final List<String> violations = new ArrayList<>();

  AuditingJournal(ExecutionJournal delegate) {
    super(delegate);
  }

  /** Tells {@code observer} of every claim the journal accepts, with the tree just before it. */
  void onClaim(BiConsumer<AppendRequest, TreeState> observer) {
    this.claimObserver = observer;
  }

  @Override
  public List<AppendResult> appendAll(List<AppendRequest> requests) {
    Map<AppendRequest, TreeState> before = new HashMap<>();
    for (AppendRequest request : requests) {
      if (request.claims()) {
        Replay.replay(delegate, request.rootRunId()).ifPresent(tree -> before.put(request, tree));
      }
    }
    List<AppendResult> results = delegate.appendAll(requests);
    for (int i = 0; i < results.size(); i++) {
      if (results.get(i) instanceof AppendResult.Appended appended && !appended.alreadyPresent()) {
        AppendRequest request = requests.get(i);
        audit(request);
        if (before.containsKey(request)) {
          claimObserver.accept(request, before.get(request));
        }
      }
    }
    return results;
  }

  /** The sequences of the entries of {@code root} that were appended in one append with a claim. */
  Set<Long> appendedWithAClaim(UUID root) {
    return claimedWith.getOrDefault(root, Set.of());
  }

  private void audit(AppendRequest request) {
    if (request.claims()) {
      Set<Long> seqs = claimedWith.computeIfAbsent(request.rootRunId(), r -> new HashSet<>());
      request.entries().forEach(entry -> seqs.add(entry.seq()));
    }
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

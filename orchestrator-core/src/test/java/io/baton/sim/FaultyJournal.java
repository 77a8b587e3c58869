package io.baton.sim;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.ForwardingJournal;
import io.baton.journal.JournalCodecException;
import io.baton.journal.JournalEntry;
import io.baton.store.StoreUnavailableException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One node's way to the journal: it fails while the node cannot reach the store, and sometimes at
 * random; a failed append may have been written (an ambiguous commit), as with a real database. A
 * poisoned root cannot be read at all.
 */
final class FaultyJournal extends ForwardingJournal {
  private final String node;
  private final SimFaults faults;

  FaultyJournal(String node, ExecutionJournal delegate, SimFaults faults) {
    super(delegate);
    this.node = node;
    this.faults = faults;
  }

  @Override
  public List<AppendResult> appendAll(List<AppendRequest> requests) {
    if (faults.storeFails(node)) {
      if (faults.afterWrite()) {
        delegate.appendAll(requests);
      }
      throw new StoreUnavailableException("simulated: node " + node + " lost the store", null);
    }
    return delegate.appendAll(requests);
  }

  @Override
  public List<JournalEntry> readFrom(UUID rootRunId, long fromSeq, int limit) {
    checkRead(List.of(rootRunId));
    return delegate.readFrom(rootRunId, fromSeq, limit);
  }

  @Override
  public Map<UUID, List<JournalEntry>> readAllAfter(Map<UUID, Long> afterSeq) {
    checkRead(afterSeq.keySet());
    return delegate.readAllAfter(afterSeq);
  }

  @Override
  public Map<UUID, List<JournalEntry>> readAll(Collection<UUID> rootRunIds) {
    checkRead(rootRunIds);
    return delegate.readAll(rootRunIds);
  }

  private void checkRead(Collection<UUID> roots) {
    if (faults.storeFails(node)) {
      throw new StoreUnavailableException(
          "simulated: node " + node + " cannot read the journal", null);
    }
    for (UUID root : roots) {
      if (faults.poisoned(root)) {
        throw new JournalCodecException(
            "simulated: unknown journal event type in root run " + root, root, null);
      }
    }
  }
}

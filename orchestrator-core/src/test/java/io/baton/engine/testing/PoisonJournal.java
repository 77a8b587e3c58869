package io.baton.engine.testing;

import io.baton.journal.ExecutionJournal;
import io.baton.journal.ForwardingJournal;
import io.baton.journal.JournalCodecException;
import io.baton.journal.JournalEntry;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A journal in which chosen roots hold an entry that cannot be decoded, as when a newer node wrote
 * an event this one does not know: every read that touches them fails, as a database journal's
 * would. Appends still work. Thread-safe.
 */
public final class PoisonJournal extends ForwardingJournal {
  private final Set<UUID> poisoned = ConcurrentHashMap.newKeySet();

  public PoisonJournal(ExecutionJournal delegate) {
    super(delegate);
  }

  public void poison(UUID root) {
    poisoned.add(root);
  }

  public void repair() {
    poisoned.clear();
  }

  @Override
  public List<JournalEntry> readFrom(UUID rootRunId, long fromSeq, int limit) {
    check(List.of(rootRunId));
    return delegate.readFrom(rootRunId, fromSeq, limit);
  }

  @Override
  public Map<UUID, List<JournalEntry>> readAllAfter(Map<UUID, Long> afterSeq) {
    check(afterSeq.keySet());
    return delegate.readAllAfter(afterSeq);
  }

  @Override
  public Map<UUID, List<JournalEntry>> readAll(Collection<UUID> rootRunIds) {
    check(rootRunIds);
    return delegate.readAll(rootRunIds);
  }

  private void check(Collection<UUID> roots) {
    for (UUID root : roots) {
      if (poisoned.contains(root)) {
        throw new JournalCodecException(
            "unknown journal event type 'StepTeleported' in entry seq 3 of root run " + root,
            root,
            null);
      }
    }
  }
}

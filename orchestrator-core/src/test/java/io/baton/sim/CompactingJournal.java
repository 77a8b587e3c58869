package io.baton.sim;

import io.baton.journal.Checkpoint;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.ForwardingJournal;
import io.baton.journal.JournalEntry;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The nodes' view of a journal that the simulation compacts: {@link #compact} drops a root's
 * entries up to its checkpoint from every read, as from a hot journal whose old entries were moved
 * out, while the journal underneath keeps them for the oracle (which checks every run's whole
 * history). Single-threaded, like the simulation.
 */
final class CompactingJournal extends ForwardingJournal {
  private final Map<UUID, Long> compactedTo = new HashMap<>();

  CompactingJournal(ExecutionJournal delegate) {
    super(delegate);
  }

  /** The highest seq compacted away for the root, 0 if none. */
  long compactedTo(UUID root) {
    return compactedTo.getOrDefault(root, 0L);
  }

  @Override
  public List<JournalEntry> readFrom(UUID rootRunId, long fromSeq, int limit) {
    return delegate.readFrom(rootRunId, Math.max(fromSeq, compactedTo(rootRunId) + 1), limit);
  }

  @Override
  public Map<UUID, List<JournalEntry>> readAll(Collection<UUID> rootRunIds) {
    Map<UUID, List<JournalEntry>> all = new LinkedHashMap<>();
    delegate
        .readAll(rootRunIds)
        .forEach(
            (root, entries) -> {
              List<JournalEntry> hot =
                  entries.stream().filter(e -> e.seq() > compactedTo(root)).toList();
              if (!hot.isEmpty()) {
                all.put(root, hot);
              }
            });
    return all;
  }

  @Override
  public Map<UUID, List<JournalEntry>> readAllAfter(Map<UUID, Long> afterSeq) {
    Map<UUID, Long> after = new LinkedHashMap<>();
    afterSeq.forEach((root, seq) -> after.put(root, Math.max(seq, compactedTo(root))));
    return delegate.readAllAfter(after);
  }

  @Override
  public int compact(UUID rootRunId) {
    Optional<Checkpoint> checkpoint = delegate.getCheckpoint(rootRunId);
    long before = compactedTo(rootRunId);
    if (checkpoint.isEmpty() || checkpoint.get().seq() <= before) {
      return 0;
    }
    compactedTo.put(rootRunId, checkpoint.get().seq());
    return (int) (checkpoint.get().seq() - before);
  }
}

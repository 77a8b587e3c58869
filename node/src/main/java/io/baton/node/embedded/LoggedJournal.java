package io.baton.node.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.Checkpoint;
import io.baton.journal.ForwardingJournal;
import io.baton.journal.memory.InMemoryJournal;
import io.baton.journal.memory.InMemoryJournal.Archived;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory journal made durable: every accepted append is logged, and forced to disk, before
 * the call returns; one that cannot be logged is not kept (see {@link LoggedChanges}). Thread-safe.
 */
final class LoggedJournal extends ForwardingJournal {
  private final InMemoryJournal memory;
  private final LoggedChanges changes;
  private final AtomicLong highestToken;

  LoggedJournal(InMemoryJournal delegate, LoggedChanges changes, AtomicLong highestToken) {
    super(delegate);
    this.memory = delegate;
    this.changes = changes;
    this.highestToken = highestToken;
  }

  @Override
  public List<AppendResult> appendAll(List<AppendRequest> requests) {
    return changes.apply(() -> delegate.appendAll(requests), results -> written(requests, results));
  }

  private List<JsonNode> written(List<AppendRequest> requests, List<AppendResult> results) {
    List<JsonNode> records = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      if (results.get(i) instanceof AppendResult.Appended appended && !appended.alreadyPresent()) {
        records.add(Records.append(requests.get(i)));
        highestToken.accumulateAndGet(requests.get(i).token(), Math::max);
      }
    }
    return records;
  }

  @Override
  public void checkpoint(UUID rootRunId, long token, Checkpoint checkpoint) {
    changes.apply(
        () -> {
          delegate.checkpoint(rootRunId, token, checkpoint);
          return null;
        },
        done -> List.of(Records.checkpoint(rootRunId, token, checkpoint)));
  }

  @Override
  public int compact(UUID rootRunId) {
    return changes.apply(
        () -> delegate.compact(rootRunId),
        removed -> removed > 0 ? List.of(Records.compact(rootRunId)) : List.of());
  }

  /**
   * Archives in memory (the archive is the compacted segment that the log's next snapshot writes)
   * and logs how far each root was archived, so that a replay of the log archives the same.
   */
  @Override
  public int archiveCovered(int limit) {
    Map<UUID, Archived> archived =
        changes.apply(
            () -> memory.archiveCoveredByRoot(limit),
            roots -> {
              List<JsonNode> records = new ArrayList<>();
              roots.forEach((root, done) -> records.add(Records.archive(root, done.through())));
              return records;
            });
    return archived.values().stream().mapToInt(Archived::moved).sum();
  }
}

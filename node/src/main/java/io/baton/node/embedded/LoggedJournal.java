package io.baton.node.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.Checkpoint;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.JournalEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory journal made durable: every accepted append is logged, and forced to disk, before
 * the call returns. Changes are applied and logged under the log's lock, so the log's order is the
 * journal's. Thread-safe.
 */
final class LoggedJournal implements ExecutionJournal {
  private final ExecutionJournal delegate;
  private final MutationLog log;
  private final AtomicLong highestToken;

  LoggedJournal(ExecutionJournal delegate, MutationLog log, AtomicLong highestToken) {
    this.delegate = delegate;
    this.log = log;
    this.highestToken = highestToken;
  }

  @Override
  public void append(AppendRequest request) {
    appendAll(List.of(request)).get(0).throwIfFailed();
  }

  @Override
  public List<AppendResult> appendAll(List<AppendRequest> requests) {
    synchronized (log) {
      List<AppendResult> results = delegate.appendAll(requests);
      List<JsonNode> records = new ArrayList<>();
      for (int i = 0; i < results.size(); i++) {
        if (results.get(i) instanceof AppendResult.Appended appended
            && !appended.alreadyPresent()) {
          records.add(Records.append(requests.get(i)));
          highestToken.accumulateAndGet(requests.get(i).token(), Math::max);
        }
      }
      log.write(records);
      return results;
    }
  }

  @Override
  public List<JournalEntry> readFrom(UUID rootRunId, long fromSeq, int limit) {
    return delegate.readFrom(rootRunId, fromSeq, limit);
  }

  @Override
  public long latestSequence(UUID rootRunId) {
    return delegate.latestSequence(rootRunId);
  }

  @Override
  public OptionalLong currentToken(UUID rootRunId) {
    return delegate.currentToken(rootRunId);
  }

  @Override
  public void checkpoint(UUID rootRunId, long token, Checkpoint checkpoint) {
    synchronized (log) {
      delegate.checkpoint(rootRunId, token, checkpoint);
      log.write(List.of(Records.checkpoint(rootRunId, token, checkpoint)));
    }
  }

  @Override
  public Optional<Checkpoint> getCheckpoint(UUID rootRunId) {
    return delegate.getCheckpoint(rootRunId);
  }

  @Override
  public int compact(UUID rootRunId) {
    synchronized (log) {
      int removed = delegate.compact(rootRunId);
      if (removed > 0) {
        log.write(List.of(Records.compact(rootRunId)));
      }
      return removed;
    }
  }

  @Override
  public List<UUID> listActiveRoots(UUID after, int limit) {
    return delegate.listActiveRoots(after, limit);
  }
}

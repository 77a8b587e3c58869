package io.baton.node.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.Checkpoint;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.ForwardingJournal;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory journal made durable: every accepted append is logged, and forced to disk, before
 * the call returns. Changes are applied and logged under the log's lock, so the log's order is the
 * journal's. Thread-safe.
 */
final class LoggedJournal extends ForwardingJournal {
  private final MutationLog log;
  private final AtomicLong highestToken;

  LoggedJournal(ExecutionJournal delegate, MutationLog log, AtomicLong highestToken) {
    super(delegate);
    this.log = log;
    this.highestToken = highestToken;
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
  public void checkpoint(UUID rootRunId, long token, Checkpoint checkpoint) {
    synchronized (log) {
      delegate.checkpoint(rootRunId, token, checkpoint);
      log.write(List.of(Records.checkpoint(rootRunId, token, checkpoint)));
    }
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
}

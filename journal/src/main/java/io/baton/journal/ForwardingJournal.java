package io.baton.journal;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * A journal that forwards every call to another; subclasses intercept what they need (the embedded
 * store's durable log, fault injection and auditing in tests). As thread-safe as its delegate.
 */
public abstract class ForwardingJournal implements ExecutionJournal {
  protected final ExecutionJournal delegate;

  protected ForwardingJournal(ExecutionJournal delegate) {
    this.delegate = delegate;
  }

  @Override
  public void append(AppendRequest request) {
    appendAll(List.of(request)).get(0).throwIfFailed();
  }

  @Override
  public List<AppendResult> appendAll(List<AppendRequest> requests) {
    return delegate.appendAll(requests);
  }

  @Override
  public List<JournalEntry> readFrom(UUID rootRunId, long fromSeq, int limit) {
    return delegate.readFrom(rootRunId, fromSeq, limit);
  }

  @Override
  public List<JournalEntry> readHistory(UUID rootRunId, long fromSeq, int limit) {
    return delegate.readHistory(rootRunId, fromSeq, limit);
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
    delegate.checkpoint(rootRunId, token, checkpoint);
  }

  @Override
  public Optional<Checkpoint> getCheckpoint(UUID rootRunId) {
    return delegate.getCheckpoint(rootRunId);
  }

  @Override
  public Map<UUID, List<JournalEntry>> readAll(Collection<UUID> rootRunIds) {
    return delegate.readAll(rootRunIds);
  }

  @Override
  public Map<UUID, List<JournalEntry>> readAllAfter(Map<UUID, Long> afterSeq) {
    return delegate.readAllAfter(afterSeq);
  }

  @Override
  public Map<UUID, Checkpoint> getCheckpoints(Collection<UUID> rootRunIds) {
    return delegate.getCheckpoints(rootRunIds);
  }

  @Override
  public int compact(UUID rootRunId) {
    return delegate.compact(rootRunId);
  }

  @Override
  public int archiveCovered(int limit) {
    return delegate.archiveCovered(limit);
  }

  @Override
  public List<UUID> listActiveRoots(UUID after, int limit) {
    return delegate.listActiveRoots(after, limit);
  }
}

package io.baton.journal;

import java.util.UUID;

/** The outcome of one request in {@link ExecutionJournal#appendAll}. */
public sealed interface AppendResult {
  UUID rootRunId();

  /** The entries are in the journal: written now, or found already written identically. */
  record Appended(UUID rootRunId, long lastSeq, boolean alreadyPresent) implements AppendResult {}

  /** The request's token is not the root's current token; nothing was written. */
  record FencedOut(UUID rootRunId, long staleToken, long currentToken) implements AppendResult {}

  /** The first entry's seq is not the next one; nothing was written. */
  record SequenceConflict(UUID rootRunId, long firstSeq, long latestSeq) implements AppendResult {}

  /** Refused for another reason (for example a duplicate idempotency key); nothing was written. */
  record Rejected(UUID rootRunId, RuntimeException cause) implements AppendResult {}

  default boolean isAppended() {
    return this instanceof Appended;
  }

  /** Throws the exception {@link ExecutionJournal#append} throws for this outcome, if any. */
  default void throwIfFailed() {
    if (this instanceof FencedOut fenced) {
      throw new FencedOutException(fenced.rootRunId(), fenced.staleToken(), fenced.currentToken());
    }
    if (this instanceof SequenceConflict conflict) {
      throw new SequenceConflictException(
          conflict.rootRunId(), conflict.firstSeq(), conflict.latestSeq());
    }
    if (this instanceof Rejected rejected) {
      throw rejected.cause();
    }
  }
}

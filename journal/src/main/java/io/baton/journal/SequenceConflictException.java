package io.baton.journal;

import java.util.UUID;

/** An append did not continue the journal where it ends; the caller's view is out of date. */
public class SequenceConflictException extends JournalException {
  private final long firstSeq;
  private final long latestSeq;

  public SequenceConflictException(UUID rootRunId, long firstSeq, long latestSeq) {
    super(
        "journal of run "
            + rootRunId
            + " ends at seq "
            + latestSeq
            + ", an append starting at seq "
            + firstSeq
            + " does not continue it",
        rootRunId);
    this.firstSeq = firstSeq;
    this.latestSeq = latestSeq;
  }

  public long firstSeq() {
    return firstSeq;
  }

  public long latestSeq() {
    return latestSeq;
  }
}

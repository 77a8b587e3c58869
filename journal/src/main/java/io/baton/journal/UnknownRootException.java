package io.baton.journal;

import java.util.UUID;

/** An append addressed a root that has no journal, and did not create it. */
public class UnknownRootException extends JournalException {
  public UnknownRootException(UUID rootRunId) {
    super("no journal exists for root run " + rootRunId, rootRunId);
  }
}

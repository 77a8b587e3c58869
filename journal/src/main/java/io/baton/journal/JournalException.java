package io.baton.journal;

import io.baton.BatonException;
import java.util.UUID;

/** The family of journal failures. */
public class JournalException extends BatonException {
  public JournalException(String message, UUID runId, Throwable cause) {
    super(message, runId, null, cause);
  }

  public JournalException(String message, UUID runId) {
    this(message, runId, null);
  }
}

package io.baton.journal;

import java.util.UUID;

/** Stored journal data could not be decoded (an unknown event tag, a malformed document). */
public class JournalCodecException extends JournalException {
  public JournalCodecException(String message, UUID rootRunId, Throwable cause) {
    super(message, rootRunId, cause);
  }
}

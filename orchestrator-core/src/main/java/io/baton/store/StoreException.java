package io.baton.store;

import io.baton.BatonException;
import java.util.UUID;

/** The family of metadata and blob store failures. */
public class StoreException extends BatonException {
  public StoreException(String message, UUID runId, Throwable cause) {
    super(message, runId, null, cause);
  }
}

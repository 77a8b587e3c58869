package io.baton.store;

/**
 * The store did not answer, or answered with a transient failure, for longer than the configured
 * retry window. Retryable: nothing was lost; the caller waits and tries again.
 */
public class StoreUnavailableException extends StoreException {
  public StoreUnavailableException(String message, Throwable cause) {
    super(message, null, cause);
  }
}

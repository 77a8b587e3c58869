package io.baton.store;

/** A key could not be stored: another stored key has its name (or id). */
public final class KeyNameTakenException extends StoreException {
  private static final long serialVersionUID = 1L;

  public KeyNameTakenException(String message) {
    super(message, null, null);
  }
}

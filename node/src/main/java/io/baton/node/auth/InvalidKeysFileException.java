package io.baton.node.auth;

/** The keys file cannot be read or has a mistake; the message names the file, key and field. */
public final class InvalidKeysFileException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public InvalidKeysFileException(String message) {
    super(message);
  }
}

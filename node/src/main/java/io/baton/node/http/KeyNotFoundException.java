package io.baton.node.http;

/** No API key has the id a call named (a 404). */
final class KeyNotFoundException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  KeyNotFoundException(String message) {
    super(message);
  }
}

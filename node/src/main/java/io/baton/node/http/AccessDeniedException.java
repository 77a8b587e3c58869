package io.baton.node.http;

/** The caller is known but may not do this (a 403); the message says what it lacks. */
final class AccessDeniedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  AccessDeniedException(String message) {
    super(message);
  }
}

package io.baton.node.http;

/** A call tried to change a key of the keys file through the API (a 409: change the file). */
final class FileKeyException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  FileKeyException(String message) {
    super(message);
  }
}

package io.baton.node.auth;

/** A call carried no credentials, or ones that do not prove anyone (a 401 at the API). */
public final class AuthenticationFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public AuthenticationFailedException(String message) {
    super(message);
  }
}

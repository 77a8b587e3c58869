package io.baton.node.auth;

/** Turns a call's bearer token into the principal it proves. Thread-safe. */
public interface Authenticator {
  /**
   * The principal of {@code bearerToken}.
   *
   * @param bearerToken the token after {@code Bearer }, or null when the call sent none
   * @throws AuthenticationFailedException no token, or a token that proves no one; the message says
   *     which (never the token)
   */
  Principal authenticate(String bearerToken);

  /** Whether calls must authenticate at all; false only for {@code auth.mode: none}. */
  default boolean required() {
    return true;
  }

  /** Authentication off: every call is {@link Principal#ANONYMOUS}. */
  static Authenticator none() {
    return new Authenticator() {
      @Override
      public Principal authenticate(String bearerToken) {
        return Principal.ANONYMOUS;
      }

      @Override
      public boolean required() {
        return false;
      }
    };
  }
}
